// SQLite driver of the state store (node:sqlite): DATA_DIR/state.sqlite in WAL
// mode, shared by the cluster's workers and any CLI command. node:sqlite is
// synchronous; one async mutex per database file keeps each transaction
// whole (no other statement of this process, on any handle, runs between its
// BEGIN and COMMIT — a second handle waiting on the file lock would block the
// thread that must commit). Another process's lock on the file is waited for
// on a timer, off the event loop (withLockWait, decision 0429).
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import type { Queryer, Row, SqlDriver } from './sql.ts';
import { createStateStore, type StateStore } from './store.ts';
import { Lru } from '../lib/lru.ts';
import { STATE_PAGE_CACHE_BYTES } from '../lib/cache-budget.ts';

/**
 * Prepared statements kept per handle. Statement shapes vary with the length
 * of an `IN (…)` list, so the cache is an LRU: the least recently used beyond
 * this are dropped and prepared again on need (issue 24, L9: an unbounded map
 * grew by 215 MB over 500 shapes).
 */
export const STATEMENT_CACHE_SIZE = 200;

/**
 * How long an operation waits for a lock another process holds on the file
 * (the other worker's commit, a CLI command) before it fails as before.
 */
export const LOCK_WAIT_MS = 5000;

/** SQLITE_BUSY, and its extended codes (SQLITE_BUSY_RECOVERY, …) in the low byte. */
const isBusy = (err: unknown): boolean => (Number((err as { errcode?: unknown } | null)?.errcode) & 0xff) === 5;

/**
 * Run `attempt` (one statement, or a BEGIN IMMEDIATE) until no other process
 * holds the lock it needs, trying again after 1, 2, 4 then every 8 ms, for
 * at most LOCK_WAIT_MS. SQLite's own busy_timeout waited the same way but
 * slept on the thread: with two workers committing their usage events, a
 * worker's BEGIN IMMEDIATE waited for the other's commit 7 % of the time,
 * holding the event loop 0.5-49 ms each time (docs/performance.md, "Issue
 * 25, 2026-12-02 (later)"). A statement that failed for the lock changed
 * nothing, so trying it again is safe.
 */
async function withLockWait<T>(attempt: () => T): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 8)) {
    try {
      return attempt();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function bind(params: unknown[]): SQLInputValue[] {
  return params.map((p) => {
    if (p === undefined) return null;
    if (typeof p === 'boolean') return p ? 1 : 0;
    return p as SQLInputValue;
  });
}

/** One operation queue per database file, shared by the handles of this process. */
const queues = new Map<string, { tail: Promise<unknown>; handles: number }>();

export class SqliteDriver implements SqlDriver {
  readonly kind = 'sqlite' as const;
  readonly forUpdate = '';
  readonly skipLocked = '';
  private readonly db: DatabaseSync;
  private readonly statements = new Lru<string, StatementSync>(STATEMENT_CACHE_SIZE);
  private readonly lane: { tail: Promise<unknown>; handles: number };
  private readonly laneName: string;
  private closed = false;

  constructor(file: string) {
    this.laneName = file === ':memory:' ? `:memory:${Math.random()}` : path.resolve(file);
    this.lane = queues.get(this.laneName) ?? { tail: Promise.resolve(), handles: 0 };
    this.lane.handles++;
    queues.set(this.laneName, this.lane);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec('PRAGMA busy_timeout = 5000');
    if (file !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    this.db.exec(`PRAGMA cache_size = -${Math.round(STATE_PAGE_CACHE_BYTES / 1024)}`);
    // From here a lock another process holds fails at once and is waited for
    // by withLockWait, on a timer (the pragmas above ran with the timeout).
    this.db.exec('PRAGMA busy_timeout = 0');
  }

  /** Prepared statements cached now (tests). */
  get cachedStatements(): number {
    return this.statements.size;
  }

  private statement(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /** One statement, now, on this thread (synchronous, so that withLockWait sees its SQLITE_BUSY as a throw). */
  private allNow<T = Row>(sql: string, params: unknown[]): T[] {
    return this.statement(sql).all(...bind(params)) as T[];
  }

  private runNow(sql: string, params: unknown[]): number {
    return Number(this.statement(sql).run(...bind(params)).changes);
  }

  private readonly direct: Queryer = {
    all: async <T = Row>(sql: string, params: unknown[] = []) => this.allNow<T>(sql, params),
    run: async (sql: string, params: unknown[] = []) => this.runNow(sql, params),
  };

  /** Run `fn` after every earlier operation of this connection finished. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.lane.tail.then(fn);
    this.lane.tail = result.catch(() => undefined);
    return result;
  }

  all<T = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.serial(() => withLockWait(() => this.allNow<T>(sql, params)));
  }

  run(sql: string, params: unknown[] = []): Promise<number> {
    return this.serial(() => withLockWait(() => this.runNow(sql, params)));
  }

  tx<T>(fn: (q: Queryer) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      // Once BEGIN IMMEDIATE holds the write lock, no statement of the
      // transaction waits for another process (WAL: readers never block it).
      await withLockWait(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await fn(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  migrate(): Promise<void> {
    return this.serial(async () => {
      // BEGIN IMMEDIATE takes the write lock: a second process waits (withLockWait) and then sees the versions applied.
      await withLockWait(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
        const applied = new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
        for (const m of MIGRATIONS) {
          if (applied.has(m.version)) continue;
          this.db.exec(m.sqlite);
          this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
        }
        this.db.exec('COMMIT');
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  ping(): Promise<boolean> {
    return this.serial(() => withLockWait(() => (this.db.prepare('SELECT 1 AS ok').get() as { ok: number }).ok === 1));
  }

  close(): Promise<void> {
    return this.serial(async () => {
      if (this.closed) return;
      this.closed = true;
      if (--this.lane.handles === 0) queues.delete(this.laneName);
      this.statements.clear();
      this.db.close();
    });
  }
}

/** A SQLite state store at `file` (`:memory:` for a throwaway one); call `migrate()` before use. */
export function openSqliteStore(file: string): StateStore {
  return createStateStore(new SqliteDriver(file));
}
