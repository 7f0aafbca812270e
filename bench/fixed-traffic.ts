// `npx node bench/fixed-traffic.ts [--only detail,search-mix,...] [--calls 8000] [--soak 16000]`:
// the process tree's memory after a FIXED number of requests, whatever the
// machine's load (`npm run bench` sends what fits in its seconds, so a loaded
// machine sends less and two runs differ in traffic too). Starts the server
// as `npm start` starts it (primary + workers, DATA_DIR=var/bench, as the
// bench: run the bench or bench/build-catalogue.ts once for the catalogue),
// sends each scenario's requests `--calls` times (16 connections, after a
// fifth of that as warm-up), then `--soak` requests of the long tail, and
// prints each process's memory at start, after the scenarios and after the
// soak, with the workers' jpsp_memory_bytes. No bare replay, no timings.
// `--mappings`: at the end, each process's resident memory by kind of
// mapping (/proc/<pid>/smaps: V8's pages, glibc's arenas, the node binary).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareBenchEnv } from './lib/bench-env.ts';
import { freePort, startServer } from './lib/processes.ts';
import { buildScenarios } from './lib/scenarios.ts';
import type { BenchRequest } from './lib/recording.ts';
import { cycleRequests } from './lib/load.ts';
import { describeDelay, withEventLoopDelay } from './lib/event-loop.ts';
import { describeComponents, describeMappings, describeTreeMemory, memoryComponents, treeMemory } from './lib/memory-tree.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'detail,search-mix,long-tail,batch-50,mcp-search' },
    calls: { type: 'string', default: '8000' },
    soak: { type: 'string', default: '16000' },
    connections: { type: 'string', default: '16' },
    'long-tail': { type: 'string', default: '2500' },
    mappings: { type: 'boolean', default: false },
  },
});

/** Send `amount` requests of the list (one shared cursor, as bench/lib/load.ts), `connections` at a time. */
async function send(url: string, requests: readonly BenchRequest[], amount: number): Promise<{ sent: number; failures: number }> {
  const r = await cycleRequests(url, requests, Number(values.connections), { amount });
  return { sent: r.requests.total, failures: r.non2xx + r.errors };
}

/** The workers' collections so far (prom-client's nodejs_gc_duration_seconds, summed over the workers by the primary), by kind. */
async function collections(): Promise<Record<string, { count: number; seconds: number }>> {
  const text = await (await fetch(metricsUrl)).text();
  const out: Record<string, { count: number; seconds: number }> = {};
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_(count|sum)\{kind="(\w+)"\} (\S+)$/gm)) {
    const kind = (out[m[2]] ??= { count: 0, seconds: 0 });
    if (m[1] === 'count') kind.count = Number(m[3]);
    else kind.seconds = Number(m[3]);
  }
  return out;
}

/** The collections between two readings: count and summed pause (wall clock: inflated by the load; counts hold). */
function describeCollections(before: Awaited<ReturnType<typeof collections>>, after: Awaited<ReturnType<typeof collections>>): string {
  return Object.entries(after)
    .map(([kind, a]) => {
      const b = before[kind] ?? { count: 0, seconds: 0 };
      return `${kind} ${a.count - b.count} (${((a.seconds - b.seconds) * 1000).toFixed(0)} ms)`;
    })
    .join(', ');
}

/** CPU time (user + system, ms) of the tree's workers so far, from /proc (load-independent: what serving cost). */
function workersCpuMs(): number {
  let ticks = 0;
  for (const p of treeMemory(ours.child.pid!).filter((x) => x.role === 'worker')) {
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10; // USER_HZ 100
}

const { dataDir, stripe, metricsUrl, env, keys } = await prepareBenchEnv();
const ours = await startServer(await freePort(), env);
const only = new Set(values.only.split(','));
const scenarios = buildScenarios(path.join(dataDir, 'catalog.sqlite'), keys, Number(values['long-tail'])).filter((s) => only.has(s.name));
const calls = Number(values.calls);
try {
  console.log(`at start:\n${describeTreeMemory(treeMemory(ours.child.pid!))}`);
  const gc0 = await collections();
  for (const s of scenarios) {
    await send(ours.url, s.requests, Math.round(calls / 5));
    const cpu0 = workersCpuMs();
    const gcBefore = await collections();
    const { result: r, delay } = await withEventLoopDelay(metricsUrl, () => send(ours.url, s.requests, calls));
    const cpuMs = workersCpuMs() - cpu0;
    console.log(
      `${s.name}: ${r.sent} requests, ${r.failures} failures, workers' CPU ${((cpuMs * 1000) / r.sent).toFixed(0)} µs per request; collections ${describeCollections(gcBefore, await collections())}; event loop (wall clock, the worst worker) ${describeDelay(delay)}`,
    );
  }
  const gc1 = await collections();
  console.log(`after the scenarios:\n${describeTreeMemory(treeMemory(ours.child.pid!))}`);
  console.log(`  workers' collections over the scenarios: ${describeCollections(gc0, gc1)}`);
  console.log(`  workers: ${describeComponents(await memoryComponents(metricsUrl))}`);
  const tail = scenarios.find((s) => s.name === 'long-tail');
  if (tail && Number(values.soak) > 0) {
    const cpu0 = workersCpuMs();
    const r = await send(ours.url, tail.requests, Number(values.soak));
    const cpuMs = workersCpuMs() - cpu0;
    console.log(`soak (long tail): ${r.sent} requests, ${r.failures} failures, workers' CPU ${((cpuMs * 1000) / r.sent).toFixed(0)} µs per request`);
    console.log(`after the soak:\n${describeTreeMemory(treeMemory(ours.child.pid!))}`);
    console.log(`  workers' collections over the soak: ${describeCollections(gc1, await collections())}`);
    console.log(`  workers: ${describeComponents(await memoryComponents(metricsUrl))}`);
  }
  if (values.mappings) for (const p of treeMemory(ours.child.pid!)) console.log(`  ${p.role} ${p.pid}, resident by mapping:\n${describeMappings(p.pid)}`);
} finally {
  await ours.stop();
  await stripe.stop();
}
process.exit(0);
