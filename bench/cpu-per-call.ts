// `npx node bench/cpu-per-call.ts --only mcp-search,detail [--root <checkout>]`:
// CPU time per call of the bench's scenarios, in process, independent of the
// machine's load. Builds the app (buildApp, as a worker does, SQLite state,
// billing off: the meter flusher's HTTP is left out) over the bench catalogue
// (var/bench/catalog.sqlite of this checkout: run `npm run bench` or
// bench/profile.ts once to build it), sends each scenario's requests through
// `inject`, `--concurrency` at a time, and reports per call: CPU µs
// (process.cpuUsage, user + system, of this one process: the server and the
// injecting driver), Fastify passes (requests the app handled: a tool call
// that calls the REST route in process costs two) and the least of several
// rounds, since other processes on the machine only ever add.
// --root measures another checkout's app with the same driver (before/after).
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './lib/processes.ts';
import { buildScenarios } from './lib/scenarios.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'detail,search-mix,mcp-search' },
    calls: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    root: { type: 'string' },
  },
});
const root = values.root ? path.resolve(values.root) : REPO_ROOT;
const src = (p: string) => pathToFileURL(path.join(root, 'packages', 'api', 'src', p)).href;
const { buildApp } = (await import(src('app.ts'))) as typeof import('../packages/api/src/app.ts');
const { loadConfig } = (await import(src('config.ts'))) as typeof import('../packages/api/src/config.ts');
const { Catalog } = (await import(src('catalog/catalog.ts'))) as typeof import('../packages/api/src/catalog/catalog.ts');
const { generateApiKey } = (await import(src('access/keys.ts'))) as typeof import('../packages/api/src/access/keys.ts');

const catalogFile = path.join(REPO_ROOT, 'var', 'bench', 'catalog.sqlite');
const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-cpu-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ANON_DAILY_LIMIT: '1000000000', FREE_DAILY_LIMIT: '1000000000' });
const app = await buildApp({ config, catalog: new Catalog(catalogFile) });
const issue = async (tier: 'paid' | 'free') => {
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId: tier === 'paid' ? 'cus_cpu' : null });
  return k.key;
};
const keys = { paid: await issue('paid'), free: await issue('free') };

// Every pass through the app, the in-process ones included.
let passes = 0;
const inject = app.inject.bind(app);
(app as unknown as { inject: unknown }).inject = (...args: Parameters<typeof inject>) => {
  passes++;
  return inject(...args);
};

const wanted = new Set(values.only.split(','));
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
for (const s of buildScenarios(catalogFile, keys, 2500).filter((x) => wanted.has(x.name))) {
  let cursor = 0;
  const run = async (n: number) => {
    let failures = 0;
    const worker = async () => {
      while (cursor < n) {
        const r = s.requests[cursor++ % s.requests.length];
        const res = await inject({ method: r.method, url: r.path, headers: r.headers, ...(r.body ? { payload: r.body } : {}) });
        if (res.statusCode !== 200) failures++;
      }
    };
    cursor = 0;
    await Promise.all(Array.from({ length: concurrency }, worker));
    return failures;
  };
  await run(Math.min(calls, 500)); // warm-up: JIT, caches
  let best = Number.POSITIVE_INFINITY;
  let failures = 0;
  let passesPerCall = 0;
  for (let round = 0; round < Number(values.rounds); round++) {
    const p0 = passes;
    const c0 = process.cpuUsage();
    failures += await run(calls);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / calls);
    passesPerCall = (passes - p0 + calls) / calls; // the driver's own injects go around the counter
  }
  console.log(
    `${s.name}: ${best.toFixed(0)} µs CPU per call (least of ${values.rounds} × ${calls}), ${passesPerCall.toFixed(2)} passes per call, ${failures} failures`,
  );
}
await app.close();
rmSync(dataDir, { recursive: true, force: true });
