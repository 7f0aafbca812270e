// Programme JSON, serialised once per catalogue: the read path's answers are
// built from these strings instead of a row read, a parse of its JSON columns,
// a shape and a JSON.stringify per record per request (the largest share of a
// detail, batch or search answer's own work in the profiles,
// docs/performance.md).
//
// - `records(pids, view)`: records' JSON in one view (the three search
//   shapes, and the detail shape with source confidence); bounded LRU by
//   characters, rows read for the missing ones in one query.
// - `detailsOf(pids, view)`: the same as whole answers in UTF-8 bytes with
//   their ETags (the detail route, and the batch, which joins the bytes).
// - `page(key, build)`: a whole answer (body and ETag) by a canonical key of
//   the request, for the search's pages; bounded LRU by characters.
//
// Everything here is a function of the catalogue file alone, so it lives on
// the Catalog object (catalog.ts) and dies with it: a new catalogue (ingest,
// a hot swap) starts with empty caches, never a stale answer.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { CatalogDatabase } from './db.ts';
import type { SearchIndex } from './search/index.ts';
import { Lru } from './search/lru.ts';
import { etagFor } from '../lib/hash.ts';
import { getProgramRowsByPid, minimalShape, defaultShape, fullShape, type ProgramRow } from './queries/programs.ts';

/** The serialised forms of a record: the search's three shapes, and `detail` (full, with source confidence). */
export type RecordView = 'minimal' | 'default' | 'full' | 'detail';

/**
 * A cached answer: its body as UTF-8 bytes (encoded once: turning a long
 * Japanese string into bytes on every write was a visible share of a detail's
 * cost) and its ETag (hashed once, not per request).
 */
export interface CachedBody {
  body: Buffer;
  etag: string;
  /** The body compressed, per content coding, made on first need (encodedBody). */
  encoded?: Partial<Record<BodyEncoding, Buffer>>;
}

/** The content codings a cached body is kept in besides identity. */
export type BodyEncoding = 'br' | 'gzip';

function cachedBody(text: string): CachedBody {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: etagFor(body) };
}

/** Cache weight of an answer: its bytes, plus room for its compressed forms (a fifth to a third of it for JSON text). */
const answerWeight = (body: Buffer): number => Math.ceil(body.length * 1.5);

/** Bodies compressed so far in this process (tests: a repeat compresses nothing). */
export const compressionStats = { compressed: 0 };

/**
 * The body in `encoding`, compressed once and kept beside it: with the
 * settings @fastify/compress uses (brotli quality 4 in text mode, gzip's
 * default level), so a client that asks for br or gzip gets what it got before,
 * without the compression per response.
 */
export function encodedBody(cached: CachedBody, encoding: BodyEncoding): Buffer {
  cached.encoded ??= {};
  if (cached.encoded[encoding] === undefined) compressionStats.compressed++;
  cached.encoded[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(cached.body, { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 } })
      : gzipSync(cached.body);
  return cached.encoded[encoding];
}

const SHAPERS: Record<RecordView, (r: ProgramRow) => unknown> = {
  minimal: minimalShape,
  default: defaultShape,
  full: (r) => fullShape(r, false),
  detail: (r) => fullShape(r, true),
};

/** Characters of record JSON kept (about 2 bytes each): every record in every view fits in about twice this. */
export const RECORD_CACHE_CHARS = 24_000_000;
/** Bytes of whole answers kept (search pages; details). */
export const PAGE_CACHE_BYTES = 16_000_000;
export const DETAIL_CACHE_BYTES = 24_000_000;

export class ProgramBodies {
  private readonly recordCache = new Lru<string, string>(RECORD_CACHE_CHARS);
  private readonly pages = new Lru<string, CachedBody>(PAGE_CACHE_BYTES);
  private readonly details = new Lru<string, CachedBody>(DETAIL_CACHE_BYTES);
  private pidById: Map<string, number> | null = null;
  private readonly provenanceHas = new Map<string, boolean>();
  private readonly db: CatalogDatabase;
  private readonly index: SearchIndex;
  /** Work done (for tests and the profile notes): records serialised, pages built. */
  readonly stats = { recordsSerialised: 0, pagesBuilt: 0 };

  constructor(db: CatalogDatabase, index: SearchIndex) {
    this.db = db;
    this.index = index;
  }

  /** Whether any record's provenance holds `text` (once per catalogue and text: a source's credit, schemas/attribution.ts). */
  anyProvenanceWith(text: string): boolean {
    let hit = this.provenanceHas.get(text);
    if (hit === undefined) {
      hit = this.db.get<{ one: number }>('SELECT 1 AS one FROM programs WHERE instr(provenance, ?) > 0 LIMIT 1', text) !== undefined;
      this.provenanceHas.set(text, hit);
    }
    return hit;
  }

  /** The catalogue's pid of a unified_id, or undefined (from the search's in-memory columns: no query). */
  pidOf(unifiedId: string): number | undefined {
    if (!this.pidById) {
      this.pidById = new Map();
      const rows = this.index.rows;
      for (const pid of this.index.pids) this.pidById.set(rows[pid].unifiedId, pid);
    }
    return this.pidById.get(unifiedId);
  }

  /** The JSON of each pid in `view` (pids the catalogue lacks are absent). */
  records(pids: readonly number[], view: RecordView): Map<number, string> {
    const out = new Map<number, string>();
    const missing: number[] = [];
    for (const pid of pids) {
      const hit = this.recordCache.get(`${view}:${pid}`);
      if (hit === undefined) missing.push(pid);
      else out.set(pid, hit);
    }
    if (missing.length > 0) {
      const shape = SHAPERS[view];
      for (const [pid, row] of getProgramRowsByPid(this.db, missing)) {
        const json = JSON.stringify(shape(row));
        this.stats.recordsSerialised++;
        this.recordCache.set(`${view}:${pid}`, json, json.length);
        out.set(pid, json);
      }
    }
    return out;
  }

  /** One record as a whole answer (GET /v1/programs/{id}). */
  detail(pid: number, view: RecordView): CachedBody | undefined {
    return this.detailsOf([pid], view).get(pid);
  }

  /** Records as whole answers, by pid (the batch joins their bytes); the missing ones read in one query. */
  detailsOf(pids: readonly number[], view: RecordView): Map<number, CachedBody> {
    const out = new Map<number, CachedBody>();
    const missing: number[] = [];
    for (const pid of pids) {
      const hit = this.details.get(`${view}:${pid}`);
      if (hit) out.set(pid, hit);
      else missing.push(pid);
    }
    if (missing.length > 0) {
      for (const [pid, json] of this.records(missing, view)) {
        const hit = cachedBody(json);
        this.details.set(`${view}:${pid}`, hit, answerWeight(hit.body));
        out.set(pid, hit);
      }
    }
    return out;
  }

  /** The answer cached under `key`, else `build()`'s, kept (a build that throws keeps nothing). */
  page(key: string, build: () => string): CachedBody {
    let hit = this.pages.get(key);
    if (!hit) {
      hit = cachedBody(build());
      this.stats.pagesBuilt++;
      this.pages.set(key, hit, answerWeight(hit.body) + key.length);
    }
    return hit;
  }
}

/**
 * A record's JSON with members appended (`{"a":1}` + `"b":2` -> `{"a":1,"b":2}`),
 * byte for byte what JSON.stringify of the object with those keys added last gives.
 */
export function withMembers(json: string, members: Record<string, unknown>): string {
  let tail = '';
  for (const [k, v] of Object.entries(members)) if (v !== undefined) tail += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  if (tail === '') return json;
  return json === '{}' ? `{${tail.slice(1)}}` : `${json.slice(0, -1)}${tail}}`;
}
