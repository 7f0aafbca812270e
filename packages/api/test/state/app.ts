// Apps over an injected state store (SQLite or PostgreSQL), for the route
// suites that run against both.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { testCatalog, tempDir } from '../helper.ts';
import type { StoreFactory, TestStore } from './stores.ts';

type Ctx = { after(fn: () => unknown): void };

export async function buildWithStore(
  t: Ctx,
  factory: StoreFactory,
  env: Record<string, string> = {},
  options: { overrides?: Partial<Config>; logger?: FastifyServerOptions['logger']; store?: TestStore } = {},
): Promise<{ app: FastifyInstance; db: TestStore }> {
  const db = options.store ?? (await factory.open(t));
  const config = loadConfig({ DATA_DIR: tempDir(t), ...env }, options.overrides ?? {});
  const app = await buildApp({ config, catalog: await testCatalog(), state: db.store, logger: options.logger });
  t.after(() => app.close());
  return { app, db };
}
