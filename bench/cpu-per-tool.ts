// `node bench/cpu-per-tool.ts [--tools search_loan_programs,list_open_programs,get_meta] [--root <checkout>]`:
// CPU time per MCP `tools/call` of tools other than search_programs (which
// bench/cpu-per-call.ts measures as `mcp-search`), in process, independent
// of the machine's load, with the driver of cpu-per-call.ts: the app built as
// a worker builds it over the bench catalogue (var/bench/catalog.sqlite of
// this checkout), a paid key, each call through `inject`, 16 at a time; per
// call the CPU µs (process.cpuUsage, the least of 3 rounds) and the Fastify
// passes (the /mcp request plus each call a tool sends to a route through
// `inject`; a call answered in process, plugins/in-process.ts, adds none).
// --root measures another checkout's app (before/after).
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './lib/processes.ts';

/** Arguments of each tool measured: calls the bench catalogue answers with rows. */
const ARGUMENTS: Record<string, object> = {
  search_loan_programs: { q: '創業', limit: 10 },
  list_open_programs: { prefecture: '東京都', limit: 10 },
  get_am_tax_rule: { measure_name_or_id: '特別償却' },
  get_meta: {},
};

const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: Object.keys(ARGUMENTS).join(',') },
    calls: { type: 'string', default: '1000' },
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

const dataDir = mkdtempSync(path.join(tmpdir(), 'jpsp-cpu-tool-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ANON_DAILY_LIMIT: '1000000000', FREE_DAILY_LIMIT: '1000000000' });
const app = await buildApp({ config, catalog: new Catalog(path.join(REPO_ROOT, 'var', 'bench', 'catalog.sqlite')) });
const k = generateApiKey();
await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'paid', customerId: 'cus_cpu' });
const headers = { 'x-api-key': k.key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

// Every pass through the app, the tools' inner calls included.
let passes = 0;
const inject = app.inject.bind(app);
(app as unknown as { inject: unknown }).inject = (...args: Parameters<typeof inject>) => {
  passes++;
  return inject(...args);
};

const concurrency = Number(values.concurrency);
for (const name of values.tools.split(',')) {
  const args = ARGUMENTS[name];
  if (!args) throw new Error(`no arguments for ${name}: one of ${Object.keys(ARGUMENTS).join(', ')}`);
  const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const run = async (n: number) => {
    let sent = 0;
    let failures = 0;
    const worker = async () => {
      while (sent++ < n) {
        const res = await inject({ method: 'POST', url: '/mcp', headers, payload });
        if (res.statusCode !== 200 || res.body.includes('"isError":true')) failures++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return failures;
  };
  const calls = Number(values.calls);
  await run(Math.min(calls, 300)); // warm-up: JIT, caches
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
    `${name}: ${best.toFixed(0)} µs CPU per call (least of ${values.rounds} × ${calls}), ${passesPerCall.toFixed(2)} passes per call, ${failures} failures`,
  );
}
await app.close();
rmSync(dataDir, { recursive: true, force: true });
