// The read side of the catalogue as one object: the connection plus the few
// things computed once per file (meta, exclusion rules). Routes reach the
// catalogue only through this.
import { CatalogDatabase } from './db.ts';
import { computeMeta, type Meta } from './queries/meta.ts';
import { loadRules, type LoadedRule } from './queries/exclusions.ts';
import { SearchIndex } from './search/index.ts';
import { ProgramSearch } from './search/engine.ts';
import { ProgramCatalog } from './programs/search.ts';

export class Catalog {
  readonly db: CatalogDatabase;
  private metaCache: Meta | null = null;
  private rulesCache: LoadedRule[] | null = null;
  private searchCache: ProgramSearch | null = null;
  private programsCache: ProgramCatalog | null = null;

  private versionCache: string | null = null;
  private datasetVersionCache: string | null = null;

  constructor(file: string) {
    this.db = new CatalogDatabase(file);
  }

  /**
   * What this file holds, as one string: the fingerprint ingest wrote (code,
   * dataset and source overlays, fingerprint.ts). A serving process swaps
   * catalogues without a restart (live.ts), so any cache of answers derived
   * from the catalogue must be keyed by (or cleared on a change of) this.
   */
  get version(): string {
    this.versionCache ??= this.db.metaValue('fingerprint') ?? 'unknown';
    return this.versionCache;
  }

  /**
   * The dataset version this file serves: the content address of the source
   * overlays it was built from (ingest/dataset-version.ts), the same on every
   * machine that built the same version. `/readyz`, `/metrics` and the server
   * report (`cli versions`) name it.
   */
  get datasetVersion(): string {
    this.datasetVersionCache ??= this.db.metaValue('dataset_version') ?? 'unknown';
    return this.datasetVersionCache;
  }

  get meta(): Meta {
    this.metaCache ??= computeMeta(this.db);
    return this.metaCache;
  }

  get rules(): LoadedRule[] {
    this.rulesCache ??= loadRules(this.db);
    return this.rulesCache;
  }

  /**
   * The programme search engine over this file: its in-memory columns and caches live
   * and die with the catalogue, so a new catalogue starts with empty caches.
   */
  get search(): ProgramSearch {
    this.searchCache ??= new ProgramSearch(new SearchIndex(this.db));
    return this.searchCache;
  }

  /** Programmes of this file: search, records and their JSON (programs/search.ts, the owner of programme search). */
  get programs(): ProgramCatalog {
    this.programsCache ??= new ProgramCatalog(this.db, this.search);
    return this.programsCache;
  }

  /**
   * Builds now what the first request of each kind would otherwise build
   * while holding the event loop (issue 25 item 5: the first detail read every
   * id, the first page scanned every record's provenance, the first /v1/meta
   * counted the catalogue: 20-70 ms each): the search columns and orders, the
   * programmes' id map and attribution flag, meta and the exclusion rules.
   * Called before a process serves a catalogue (plugins/catalog.ts) and
   * before a new one is swapped in (live.ts).
   */
  warm(): void {
    this.programs.warm();
    void this.meta;
    void this.rules;
  }

  /** What has been built so far, without building it (for /metrics). */
  get built(): { search: ProgramSearch | null; programs: ProgramCatalog | null } {
    return { search: this.searchCache, programs: this.programsCache };
  }

  close(): void {
    this.db.close();
  }
}
