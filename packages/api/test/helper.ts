// Test helpers: an app over the shared test catalogue, closed after the test.
import type { TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { Catalog } from '../src/catalog/catalog.ts';
import { ensureBidsCatalog, ensureTestCatalog } from './catalog-fixture.ts';

let shared: Catalog | null = null;
let sharedWithBids: Catalog | null = null;

/** One read-only catalogue per test process, shared by every app it builds. */
export async function testCatalog(): Promise<Catalog> {
  shared ??= new Catalog(await ensureTestCatalog());
  return shared;
}

/** The bundled dataset plus the fixture bids (see catalog-fixture.ts). */
export async function testCatalogWithBids(): Promise<Catalog> {
  sharedWithBids ??= new Catalog(await ensureBidsCatalog());
  return sharedWithBids;
}

/** A fresh, empty data directory (for state.sqlite), removed after the test. */
export function tempDir(t: { after(fn: () => void): void }, prefix = 'jpsp-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Build the app against the test catalogue; `env` sets configuration as the environment would. */
export async function build(
  t: TestContext | { after(fn: () => unknown): void },
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  options: { catalog?: Catalog } = {},
): Promise<FastifyInstance> {
  const dataDir = tempDir(t);
  const config = loadConfig({ DATA_DIR: dataDir, ...env }, overrides);
  const app = await buildApp({ config, catalog: options.catalog ?? (await testCatalog()) });
  t.after(() => app.close());
  return app;
}

/** Parse a JSON inject response body. */
export function body<T = Record<string, any>>(res: { body: string }): T {
  return JSON.parse(res.body) as T;
}
