// The small SQL driver every state repository is written against, and the
// row helpers they share. SQLite (sqlite.ts) and PostgreSQL (postgres.ts) run
// the same statements, written with `?` placeholders (the PostgreSQL driver
// numbers them). Repositories see only `SqlDatabase` (queries and
// transactions); the lifecycle (migrate, ping, close) belongs to the store.

export type Row = Record<string, unknown>;

/**
 * The database cannot be reached (refused, reset, shut down, out of
 * connections). Drivers throw it instead of their own errors so callers can
 * answer 503 with Retry-After and degrade where they decided to; a query
 * that fails for any other reason keeps its own error (a bug: 500).
 */
export class StateUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The state store is unavailable', { cause });
    this.name = 'StateUnavailableError';
  }
}

export interface Queryer {
  all<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

/** What a repository may use: statements and transactions, never the lifecycle. */
export interface SqlDatabase extends Queryer {
  readonly kind: 'sqlite' | 'postgres';
  /** Row-lock suffix for a SELECT inside a transaction (`FOR UPDATE` on PostgreSQL). */
  readonly forUpdate: string;
  /**
   * Row-lock suffix that skips rows another transaction holds (`FOR UPDATE
   * SKIP LOCKED` on PostgreSQL), for claiming outbox rows from several
   * processes; SQLite has one writer at a time, so it needs none.
   */
  readonly skipLocked: string;
  /** Run `fn` in one transaction; a thrown error rolls it back. */
  tx<T>(fn: (q: Queryer) => Promise<T>): Promise<T>;
}

export interface SqlDriver extends SqlDatabase {
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The current time as an ISO 8601 UTC string (every stored time has this form). */
export const now = (): string => new Date().toISOString();
export const num = (v: unknown): number => Number(v);
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** `?, ?, …` for an `IN (…)` list of `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** The first row mapped by `map`, or null when there is none. */
export function first<T>(rows: Row[], map: (r: Row) => T): T | null {
  return rows.length ? map(rows[0]) : null;
}

/** Column name and reader of one record field. */
type ColumnSpec<T> = readonly [column: string, read: (value: unknown) => T];

/**
 * The mapping between a record type and its table's columns, written once:
 * `list` for SELECT/INSERT/RETURNING with `values(record)` in the same order,
 * `column(field)` for partial updates, `read` for turning a row into the record.
 */
export function columns<R>(spec: { [K in keyof R]-?: ColumnSpec<R[K]> }) {
  const fields = Object.keys(spec) as (keyof R)[];
  return {
    fields,
    list: fields.map((f) => spec[f][0]).join(', '),
    column: (field: keyof R): string => spec[field][0],
    values: (record: R): unknown[] => fields.map((f) => record[f]),
    read(row: Row): R {
      const record = {} as R;
      for (const f of fields) record[f] = spec[f][1](row[spec[f][0]]);
      return record;
    },
  };
}

/** Reads a JSON text column. */
export const json = <T>(v: unknown): T => JSON.parse(String(v)) as T;
