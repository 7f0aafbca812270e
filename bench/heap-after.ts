// `npx node --expose-gc [V8 flags] bench/heap-after.ts --only long-tail --calls 5000 [--objects]`:
// what the collector did over a FIXED number of calls and what the heap
// holds after them, in process (the app built as a worker builds it:
// bench/lib/cpu.ts), so that a change is compared on the same traffic
// whatever the machine's load. Prints per scenario: CPU µs per call, the
// collections by kind (count, summed and longest pause: wall clock, so
// inflated by the load; counts hold), and after the last scenario and two
// full collections: old space live, heap used, external and array buffers,
// resident, and with --objects the heap snapshot's node count (objects V8
// holds: what every full collection marks). Pass the workers' heap flags
// (process/worker-heap.ts) to measure a worker's heap:
// `--max-semi-space-size=16 --heap-growing-percent=20`.
import { parseArgs } from 'node:util';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';
import inspector from 'node:inspector';
import { buildScenarios } from './lib/scenarios.ts';
import { BENCH_CATALOG, concurrentRun, cycledInjections, measuredApp } from './lib/cpu.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'long-tail' },
    calls: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '16' },
    'long-tail': { type: 'string', default: '5000' },
    objects: { type: 'boolean', default: false },
    sample: { type: 'boolean', default: false },
    // With --sample: also what the full collections freed (objects that outlived the young generation and then died).
    promoted: { type: 'boolean', default: false },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'full',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental step',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
let pauses: Record<string, number[]> = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = KINDS[(e as unknown as { detail: { kind: number } }).detail.kind] ?? 'other';
    (pauses[kind] ??= []).push(e.duration);
  }
}).observe({ entryTypes: ['gc'] });

const measured = await measuredApp();
// --sample: V8's sampling heap profiler over the calls; what it reports at the
// end is what is still alive then, by the function that allocated it (what
// the calls promoted and something keeps: caches, or garbage not yet collected).
const session = new inspector.Session();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
if (values.sample) {
  session.connect();
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: values.promoted });
}
const wanted = new Set(values.only.split(','));
const calls = Number(values.calls);
const MB = (n: number) => (n / 1e6).toFixed(1);
for (const s of buildScenarios(BENCH_CATALOG, measured.keys, Number(values['long-tail'])).filter((x) => wanted.has(x.name))) {
  const run = concurrentRun(measured, cycledInjections(s.requests), Number(values.concurrency));
  pauses = {};
  const c0 = process.cpuUsage();
  const failures = await run(calls);
  const c = process.cpuUsage(c0);
  const kinds = Object.entries(pauses)
    .map(([k, d]) => `${k} ${d.length} (sum ${d.reduce((a, b) => a + b, 0).toFixed(0)} ms, max ${Math.max(...d).toFixed(1)})`)
    .join(', ');
  console.log(`${s.name}: ${calls} calls, ${((c.user + c.system) / calls).toFixed(0)} µs CPU per call, ${failures} failures; ${kinds}`);
}
gc();
gc();
if (values.sample) {
  type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: Node } };
  const bySite = new Map<string, number>();
  const walk = (n: Node) => {
    const f = n.callFrame;
    const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  live ${MB(bytes)} MB  ${site}`);
}
const old = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space')!;
const mem = process.memoryUsage();
let objects = '';
if (values.objects) {
  // The snapshot's meta comes first: `"node_count":N`.
  const stream = v8.getHeapSnapshot();
  let head = '';
  for await (const chunk of stream) {
    head += chunk;
    const m = /"node_count":(\d+)/.exec(head);
    if (m) {
      objects = `, heap objects ${m[1]}`;
      stream.destroy();
      break;
    }
  }
}
console.log(
  `after: old space live ${MB(old.space_used_size)} MB, heap used ${MB(mem.heapUsed)}, external ${MB(mem.external)}, array buffers ${MB(mem.arrayBuffers)}, resident ${MB(mem.rss)}${objects}`,
);
await measured.close();
process.exit(0);
