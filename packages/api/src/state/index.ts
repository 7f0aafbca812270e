// Opens the configured state store: PostgreSQL when DATABASE_URL is set, else
// SQLite at DATA_DIR/state.sqlite. The store is migrated before it is returned.
import path from 'node:path';
import type { Config } from '../config.ts';
import type { StateStore } from './store.ts';
import { openSqliteStore } from './sqlite.ts';
import { openPostgresStore } from './postgres.ts';

export type { StateStore } from './store.ts';

export async function openStateStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<StateStore> {
  const store = config.databaseUrl ? openPostgresStore(config.databaseUrl) : openSqliteStore(path.join(config.dataDir, 'state.sqlite'));
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
}

/** A throwaway in-memory store (document builds, tools). */
export async function openMemoryStore(): Promise<StateStore> {
  const store = openSqliteStore(':memory:');
  await store.migrate();
  return store;
}
