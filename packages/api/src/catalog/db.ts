// The one owner of the catalogue connection. Opened read-only: the serving
// process never writes the catalogue (ingest builds a new file and renames it
// into place). Statements are prepared once and reused, in a bounded cache:
// SQL built from a request's filters differs per combination of filters, and
// an unbounded cache grew by about 137 KB per new shape (issue 11, finding 11).
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { existsSync } from 'node:fs';
import { Lru } from '../lib/lru.ts';
import { CATALOG_PAGE_CACHE_BYTES } from '../lib/cache-budget.ts';

/** Prepared statements kept per connection (the least recently used beyond this are dropped and re-prepared on need). */
export const STATEMENT_CACHE_SIZE = 256;

export class CatalogDatabase {
  readonly path: string;
  readonly db: DatabaseSync;
  private readonly statements = new Lru<string, StatementSync>(STATEMENT_CACHE_SIZE);

  constructor(file: string) {
    if (!existsSync(file)) throw new Error(`catalogue not found: ${file} (run \`npm run cli -- ingest\`)`);
    this.path = file;
    this.db = new DatabaseSync(file, { readOnly: true });
    // Reads only. The page cache is bounded (lib/cache-budget.ts): the hot rows live in the caches above it.
    this.db.exec(`PRAGMA cache_size = -${Math.round(CATALOG_PAGE_CACHE_BYTES / 1024)}; PRAGMA temp_store = MEMORY; PRAGMA query_only = ON;`);
  }

  /** Statements in the cache now (tests). */
  get cachedStatements(): number {
    return this.statements.size;
  }

  /** A cached prepared statement; `sql` must be a constant or built only from constants. */
  statement(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  all<T>(sql: string, ...params: (string | number | null)[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T>(sql: string, ...params: (string | number | null)[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  /**
   * Rows one at a time from a statement of its own (a cached statement would
   * be reset by any other use while this iteration is still open): for
   * exports and snapshots that must not hold a whole result in memory.
   */
  iterate<T>(sql: string, ...params: (string | number | null)[]): IterableIterator<T> {
    return this.db.prepare(sql).iterate(...params) as IterableIterator<T>;
  }

  metaValue(key: string): string | null {
    const row = this.get<{ value: string }>('SELECT value FROM catalog_meta WHERE key = ?', key);
    return row?.value ?? null;
  }

  /** Liveness: one trivial query against the file. */
  ping(): boolean {
    return this.get<{ ok: number }>('SELECT 1 AS ok')?.ok === 1;
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }
}

/** True when the file exists and was built from exactly this code and dataset (see fingerprint.ts). */
export function catalogIsCurrent(file: string, fingerprint: string): boolean {
  return catalogMetaValue(file, 'fingerprint') === fingerprint;
}

/** One catalog_meta value of a catalogue file, or null (no file, no such key, not a catalogue). */
export function catalogMetaValue(file: string, key: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const row = db.prepare('SELECT value FROM catalog_meta WHERE key = ?').get(key) as { value: string } | undefined;
      return row?.value ?? null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
