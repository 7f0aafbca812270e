// PostgreSQL driver of the state store (`pg` Pool), for several API replicas
// sharing keys, counters and usage. Statements are written with `?` and
// numbered here; migrations run under a session advisory lock so that
// processes starting together apply each version exactly once.
import pg from 'pg';
import { MIGRATIONS } from './migrations/index.ts';
import { StateUnavailableError, type Queryer, type Row, type SqlDriver } from './sql.ts';
import { createStateStore, type StateStore } from './store.ts';

/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_ID = 724_315_001;

/** `?` -> `$1`, `$2`, … (our statements never hold a literal question mark). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function bind(params: unknown[]): unknown[] {
  return params.map((p) => (p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

/** Socket errors, and SQLSTATE class 08 (connection exception), 57P01-03 (shutdown, cannot connect now), 53300 (too many connections). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is not open|Cannot use a pool after calling end/i;

/** `err` as a StateUnavailableError when it says the server cannot be reached, else `err` itself. */
export function classifyPgError(err: unknown): unknown {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_MESSAGES.test(String(e?.message ?? ''))) {
    return new StateUnavailableError(err);
  }
  return err;
}

/** Run a pg call, turning connection failures into StateUnavailableError. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classifyPgError(err);
  }
}

function queryer(client: pg.Pool | pg.PoolClient): Queryer {
  return {
    all: <T = Row>(sql: string, params: unknown[] = []) => guarded(async () => (await client.query(numbered(sql), bind(params))).rows as T[]),
    run: (sql: string, params: unknown[] = []) => guarded(async () => (await client.query(numbered(sql), bind(params))).rowCount ?? 0),
  };
}

export interface PostgresOptions {
  /** Schema to use (search_path); default the server's. Tests isolate each run in its own schema. */
  schema?: string;
  max?: number;
}

class PostgresDriver implements SqlDriver {
  readonly kind = 'postgres' as const;
  readonly forUpdate = ' FOR UPDATE';
  readonly skipLocked = ' FOR UPDATE SKIP LOCKED';
  private readonly pool: pg.Pool;
  private readonly q: Queryer;
  private closed = false;

  constructor(url: string, options: PostgresOptions) {
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
      throw new Error('schema must be a lower-case SQL identifier');
    }
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
      // A database that does not answer fails a request in seconds (503), not after a long hang.
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.q = queryer(this.pool);
  }

  all<T = Row>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.q.all<T>(sql, params);
  }

  run(sql: string, params?: unknown[]): Promise<number> {
    return this.q.run(sql, params);
  }

  async tx<T>(fn: (q: Queryer) => Promise<T>): Promise<T> {
    const client = await guarded(() => this.pool.connect());
    // A connection that drops while the client is checked out emits 'error' on
    // the client (the pool listens only to idle ones): without a listener that
    // is an uncaught exception. The failed query rejects on its own.
    const onError = () => undefined;
    client.on('error', onError);
    let broken = false;
    try {
      await guarded(() => client.query('BEGIN'));
      const result = await fn(queryer(client));
      await guarded(() => client.query('COMMIT'));
      return result;
    } catch (raw) {
      // The transaction body's own queries can meet a dropped connection too.
      const err = classifyPgError(raw);
      await client.query('ROLLBACK').catch(() => undefined);
      // A client whose connection broke must not go back to the pool.
      broken = err instanceof StateUnavailableError;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
        const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
        for (const m of MIGRATIONS) {
          if (applied.has(m.version)) continue;
          await client.query('BEGIN');
          try {
            await client.query(m.postgres);
            await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
            await client.query('COMMIT');
          } catch (err) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw err;
          }
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
      }
    } finally {
      client.release();
    }
  }

  async ping(): Promise<boolean> {
    const rows = await this.q.all<{ ok: number }>('SELECT 1 AS ok');
    return rows[0]?.ok === 1;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** A PostgreSQL state store; call `migrate()` before use. */
export function openPostgresStore(url: string, options: PostgresOptions = {}): StateStore {
  return createStateStore(new PostgresDriver(url, options));
}
