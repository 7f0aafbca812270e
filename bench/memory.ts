// `npx node --expose-gc bench/memory.ts`: what a serving process holds, by
// component, measured in one process as a worker is built (buildApp over the
// bench catalogue var/bench/catalog.sqlite) and after the bench's traffic
// (every scenario's requests through `inject`, the long tail's 2,500
// searches and every programme's detail in both shapes included). After each
// step a full collection, then resident memory, V8 heap used and external
// memory (Buffers); the difference between steps is what that step left
// held. Independent of the machine's load: no timing is measured.
import { parseArgs } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './lib/processes.ts';
import { buildScenarios } from './lib/scenarios.ts';
import { buildApp } from '../packages/api/src/app.ts';
import { loadConfig } from '../packages/api/src/config.ts';
import { Catalog } from '../packages/api/src/catalog/catalog.ts';
import { generateApiKey } from '../packages/api/src/access/keys.ts';

const { values } = parseArgs({ options: { catalog: { type: 'string' }, details: { type: 'string', default: '100000' } } });
const catalogFile = values.catalog ?? path.join(REPO_ROOT, 'var', 'bench', 'catalog.sqlite');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
let last = { rss: 0, heap: 0, external: 0 };
const step = (name: string) => {
  gc();
  gc();
  const m = process.memoryUsage();
  const now = { rss: m.rss, heap: m.heapUsed, external: m.external };
  console.log(
    `${name.padEnd(44)} rss ${mb(now.rss).padStart(9)} (${(now.rss - last.rss >= 0 ? '+' : '') + mb(now.rss - last.rss)})  heap ${mb(now.heap).padStart(9)} of ${mb(m.heapTotal)} (${(now.heap - last.heap >= 0 ? '+' : '') + mb(now.heap - last.heap)})  external ${mb(now.external)}`,
  );
  last = now;
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1000;
  console.log(`${''.padEnd(44)} of it anonymous ${mb(kb('RssAnon'))}, file ${mb(kb('RssFile'))}, shared memory ${mb(kb('RssShmem'))}`);
};

step('node + modules imported');
const catalog = new Catalog(catalogFile);
step('catalogue opened');
catalog.search;
step('search index (columns, browse order, priors)');
const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-mem-'));
const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ANON_DAILY_LIMIT: '1000000000' }), catalog });
await app.ready();
step('app built (routes, plugins, state store)');
const k = generateApiKey();
await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'paid', customerId: 'cus_mem' });
const scenarios = buildScenarios(catalogFile, { paid: k.key, free: k.key }, 2500);
for (const s of scenarios) {
  for (const r of s.requests) await app.inject({ method: r.method, url: r.path, headers: r.headers, ...(r.body ? { payload: r.body } : {}) });
  step(`after ${s.name} (${s.requests.length} requests)`);
}
const db = new DatabaseSync(catalogFile, { readOnly: true });
const ids = (db.prepare('SELECT unified_id FROM programs ORDER BY pid LIMIT ?').all(Number(values.details)) as { unified_id: string }[]).map(
  (r) => r.unified_id,
);
db.close();
for (const id of ids) {
  await app.inject({ url: `/v1/programs/${id}`, headers: { 'x-api-key': k.key } });
  await app.inject({ url: `/v1/programs/${id}?fields=minimal`, headers: { 'x-api-key': k.key } });
}
step(`after every detail, both shapes (${ids.length} ids)`);
const sqliteCache = (catalog.db.db.prepare('PRAGMA cache_size').get() as { cache_size: number }).cache_size;
console.log(`catalogue SQLite page cache bound: ${sqliteCache < 0 ? mb(-sqliteCache * 1024) : `${sqliteCache} pages`}`);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
