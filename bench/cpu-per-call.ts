// `npx node bench/cpu-per-call.ts --only mcp-search,detail [--root <checkout>]`:
// CPU time per call of the bench's scenarios, in process, independent of the
// machine's load. Builds the app (bench/lib/cpu.ts: buildApp, as a worker
// does, SQLite state, billing off) over the bench catalogue
// (var/bench/catalog.sqlite of this checkout: run `npm run bench` or
// bench/profile.ts once to build it; --catalog another, e.g. a synthetic
// catalogue's: bench/synthetic-dataset.ts), sends each scenario's requests through
// `inject`, `--concurrency` at a time, and reports per call: CPU µs
// (process.cpuUsage, user + system, of this one process: the server and the
// injecting driver), Fastify passes (requests the app handled: a tool call
// whose call goes to its route through `inject` costs two) and the least of
// several rounds, since other processes on the machine only ever add.
// --root measures another checkout's app with the same driver (before/after).
// MCP tools other than search_programs: bench/cpu-per-tool.ts.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { REPO_ROOT } from './lib/processes.ts';
import { buildScenarios } from './lib/scenarios.ts';
import { BENCH_CATALOG, concurrentRun, cycledInjections, leastCpuPerCall, measuredApp } from './lib/cpu.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'detail,search-mix,mcp-search' },
    calls: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    root: { type: 'string' },
    catalog: { type: 'string' },
    'long-tail': { type: 'string', default: '2500' },
  },
});
const catalog = values.catalog ? path.resolve(values.catalog) : BENCH_CATALOG;
const measured = await measuredApp(values.root ? path.resolve(values.root) : REPO_ROOT, catalog);

const wanted = new Set(values.only.split(','));
const calls = Number(values.calls);
for (const s of buildScenarios(catalog, measured.keys, Number(values['long-tail'])).filter((x) => wanted.has(x.name))) {
  const run = concurrentRun(measured, cycledInjections(s.requests), Number(values.concurrency));
  const { cpuMicros, passesPerCall, failures } = await leastCpuPerCall(measured, run, calls, Number(values.rounds));
  console.log(
    `${s.name}: ${cpuMicros.toFixed(0)} µs CPU per call (least of ${values.rounds} × ${calls}), ${passesPerCall.toFixed(2)} passes per call, ${failures} failures`,
  );
}
await measured.close();
