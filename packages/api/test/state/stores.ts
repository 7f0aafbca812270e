// Test state stores: SQLite in a temp directory, and PostgreSQL in a fresh
// schema of TEST_DATABASE_URL (dropped afterwards) when that is set.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { StateStore } from '../../src/state/store.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import { openPostgresStore } from '../../src/state/postgres.ts';
import { tempDir } from '../helper.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? null;

type Ctx = { after(fn: () => unknown): void };

export interface StoreFactory {
  kind: 'sqlite' | 'postgres';
  /** Skip reason when this store cannot run here. */
  skip: string | false;
  open(t: Ctx): Promise<TestStore>;
}

export interface TestStore {
  store: StateStore;
  /** Open another handle on the same database (another "process"). */
  reopen(): Promise<StateStore>;
  /** Every table's rows, as text, for privacy scans. */
  dump(): Promise<string>;
  /** SQLite: the file path; PostgreSQL: the schema name. */
  location: string;
}

export const sqliteFactory: StoreFactory = {
  kind: 'sqlite',
  skip: false,
  async open(t) {
    const file = path.join(tempDir(t, 'jpsp-state-'), 'state.sqlite');
    const handles: StateStore[] = [];
    const reopen = async () => {
      const s = openSqliteStore(file);
      await s.migrate();
      handles.push(s);
      return s;
    };
    const store = await reopen();
    t.after(async () => {
      for (const h of handles) await h.close();
    });
    return {
      store,
      reopen,
      location: file,
      async dump() {
        const { DatabaseSync } = await import('node:sqlite');
        const db = new DatabaseSync(file, { readOnly: true });
        try {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
          return tables.map((tb) => `${tb.name}: ${JSON.stringify(db.prepare(`SELECT * FROM "${tb.name}"`).all())}`).join('\n');
        } finally {
          db.close();
        }
      },
    };
  },
};

export const postgresFactory: StoreFactory = {
  kind: 'postgres',
  skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set',
  async open(t) {
    const url = TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const handles: StateStore[] = [];
    const reopen = async () => {
      const s = openPostgresStore(url, { schema, max: 4 });
      await s.migrate();
      handles.push(s);
      return s;
    };
    const store = await reopen();
    t.after(async () => {
      for (const h of handles) await h.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    });
    return {
      store,
      reopen,
      location: schema,
      async dump() {
        const tables = await admin.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
        const parts: string[] = [];
        for (const { table_name } of tables.rows) {
          const rows = await admin.query(`SELECT * FROM ${schema}."${table_name}"`);
          parts.push(`${table_name}: ${JSON.stringify(rows.rows)}`);
        }
        return parts.join('\n');
      },
    };
  },
};

export const FACTORIES = [sqliteFactory, postgresFactory];
