// `npm run bench`: our server against the floor of this machine.
//
// 1. Our server is started exactly as `npm start` starts it (bench/lib/processes.ts),
//    with billing on (a local fake of Stripe's API receives the meter events)
//    and called with a paid key, so auth, limits, usage recording and billing
//    all run. Anonymous and free-key scenarios lift those daily limits so they
//    measure served requests, not refusals.
// 2. Every request of every scenario is sent once and its answer recorded;
//    a bare node:http server (bench/bare-replay.ts) then replays those very
//    bytes. Both are loaded by autocannon in the same run, one after the other.
// 3. Reported per scenario: req/s, p50, p99, and the ratios of req/s and p99
//    to the bare replay; the resident memory of our process tree after the
//    scenarios, and its growth over a soak run of the long tail.
//
// Usage: npm run bench [-- --duration 10 --connections 16 --soak 60 --only detail,search-mix]
//        npm run bench -- --catalogue x10 [--rebuild]   (growth with the catalogue: bench/lib/catalogue-scale.ts)
// Results: a table on stdout and bench/results/<time>.json.
import { parseArgs } from 'node:util';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareBenchEnv } from './lib/bench-env.ts';
import { freePort, REPO_ROOT, startBare, startServer, treeProcessCount, treeRss } from './lib/processes.ts';
import { recordAll, type BenchRequest } from './lib/recording.ts';
import { buildScenarios, type Scenario } from './lib/scenarios.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { describeDelay, withEventLoopDelay, type EventLoopDelay } from './lib/event-loop.ts';
import { describeComponents, describeTreeMemory, memoryComponents, treeMemory, type ProcessMemory } from './lib/memory-tree.ts';
import { parseFactors, runCatalogueScale } from './lib/catalogue-scale.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    soak: { type: 'string', default: '60' },
    'long-tail': { type: 'string', default: '2500' },
    only: { type: 'string' },
    out: { type: 'string' },
    catalogue: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const soakSeconds = Number(values.soak);
const only = values.only ? new Set(values.only.split(',')) : null;

// --catalogue x10: the growth comparison of 1x and synthetic catalogues instead (bench/lib/catalogue-scale.ts).
if (values.catalogue) {
  await runCatalogueScale({
    factors: parseFactors(values.catalogue),
    seconds,
    warmup,
    connections,
    longTail: Number(values['long-tail']),
    only,
    rebuild: values.rebuild,
    out: values.out,
  });
  process.exit();
}

const { dataDir, stripe, metricsUrl, env, keys } = await prepareBenchEnv();

console.error('starting our server as `npm start` does (the first start builds the catalogue) …');
const ours = await startServer(await freePort(), env);
const perProcess: Record<string, ProcessMemory[]> = { atStart: treeMemory(ours.child.pid!) };
const scenarios = buildScenarios(path.join(dataDir, 'catalog.sqlite'), keys, Number(values['long-tail'])).filter((s) => !only || only.has(s.name));

console.error('recording answers for the bare replay …');
const recordingsFile = path.join(dataDir, 'recordings.json');
writeFileSync(recordingsFile, JSON.stringify(await recordAll(ours.url, scenarios)));
const bare = await startBare(await freePort(), recordingsFile);

interface Row {
  scenario: string;
  about: string;
  requests: number;
  bare: LoadResult;
  ours: LoadResult;
  rpsRatio: number;
  p99Ratio: number;
  target?: Scenario['target'];
  met: boolean | null;
  /** The workers' event-loop delay during our load (the worst worker's). */
  eventLoop: EventLoopDelay;
}

interface SoakSample {
  second: number;
  rssBytes: number;
  rps: number;
  eventLoop: EventLoopDelay;
}

const rows: Row[] = [];
const load = (url: string, requests: BenchRequest[], s: number) => runLoad(url, requests, s, connections);
try {
  for (const s of scenarios) {
    console.error(`${s.name}: ${s.about}`);
    if (warmup > 0) {
      await load(bare.url, s.requests, warmup);
      await load(ours.url, s.requests, warmup);
    }
    const b = await load(bare.url, s.requests, seconds);
    const { result: o, delay: eventLoop } = await withEventLoopDelay(metricsUrl, () => load(ours.url, s.requests, seconds));
    const rpsRatio = o.rps / b.rps;
    const p99Ratio = o.p99 / Math.max(b.p99, 1);
    const met = s.target
      ? (s.target.rps === undefined || rpsRatio >= s.target.rps) && (s.target.p99Times === undefined || p99Ratio <= s.target.p99Times)
      : null;
    rows.push({ scenario: s.name, about: s.about, requests: s.requests.length, bare: b, ours: o, rpsRatio, p99Ratio, target: s.target, met, eventLoop });
  }

  const rssAfterRun = treeRss(ours.child.pid!);
  const processes = treeProcessCount(ours.child.pid!);
  perProcess.afterRun = treeMemory(ours.child.pid!);
  const components: Record<string, Record<string, number>> = { afterRun: await memoryComponents(metricsUrl) };

  // Soak: the long tail for `soakSeconds`, memory sampled every 5 s.
  const soak: SoakSample[] = [];
  const tail = scenarios.find((s) => s.name === 'long-tail');
  if (soakSeconds > 0 && tail) {
    console.error(`soak: long tail for ${soakSeconds} s …`);
    for (let t = 0; t < soakSeconds; t += 5) {
      const { result: r, delay } = await withEventLoopDelay(metricsUrl, () => load(ours.url, tail.requests, Math.min(5, soakSeconds - t)));
      soak.push({ second: t + Math.min(5, soakSeconds - t), rssBytes: treeRss(ours.child.pid!), rps: r.rps, eventLoop: delay });
    }
  }

  if (soak.length > 0) {
    perProcess.afterSoak = treeMemory(ours.child.pid!);
    components.afterSoak = await memoryComponents(metricsUrl);
  }

  report(rows, { rssAfterRun, processes, soak, perProcess, components });
} finally {
  await bare.stop();
  await ours.stop();
  await stripe.stop();
}

interface MemoryReport {
  rssAfterRun: number;
  processes: number;
  soak: SoakSample[];
  perProcess: Record<string, ProcessMemory[]>;
  /** jpsp_memory_bytes by component, summed over the workers. */
  components: Record<string, Record<string, number>>;
}

function report(rows: Row[], memory: MemoryReport): void {
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  const lines: string[] = [];
  lines.push(
    `${connections} connections, ${seconds} s per scenario (after ${warmup} s warm-up), ${os.cpus().length} cores; ratios against the bare replay in this run.`,
  );
  lines.push('');
  lines.push('| scenario | bare req/s | bare p99 ms | ours req/s | ours p50 ms | ours p99 ms | req/s ratio | p99 ratio | target | met |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const r of rows) {
    const target = r.target
      ? [r.target.rps !== undefined ? `≥ ${r.target.rps}` : '', r.target.p99Times !== undefined ? `p99 ≤ ${r.target.p99Times}×` : ''].filter(Boolean).join(', ')
      : '';
    lines.push(
      `| ${r.scenario} | ${r.bare.rps.toFixed(0)} | ${r.bare.p99} | ${r.ours.rps.toFixed(0)} | ${r.ours.p50} | ${r.ours.p99} | ${r.rpsRatio.toFixed(2)} | ${r.p99Ratio.toFixed(1)} | ${target} | ${r.met === null ? '' : r.met ? 'yes' : 'NO'} |`,
    );
  }
  lines.push('');
  lines.push('event-loop delay of our workers during each scenario:');
  for (const r of rows) lines.push(`  ${r.scenario}: ${describeDelay(r.eventLoop)}`);
  lines.push(`memory: ${memory.processes} server process(es), ${mb(memory.rssAfterRun)} MB resident after the scenarios`);
  if (memory.soak.length > 1) {
    const first = memory.soak[0];
    const last = memory.soak.at(-1)!;
    lines.push(
      `soak (long tail): ${mb(first.rssBytes)} MB at ${first.second} s → ${mb(last.rssBytes)} MB at ${last.second} s (growth ${mb(last.rssBytes - first.rssBytes)} MB); req/s ${memory.soak.map((s) => s.rps.toFixed(0)).join(' ')}`,
    );
  }
  if (memory.soak.length > 0)
    lines.push(`soak event-loop delay per 5 s: ${memory.soak.map((s) => `p99 ${s.eventLoop.p99.toFixed(1)}/max ${s.eventLoop.max.toFixed(0)}`).join(', ')} ms`);
  for (const [when, processes] of Object.entries(memory.perProcess)) lines.push(`memory per process, ${when}:`, describeTreeMemory(processes));
  for (const [when, c] of Object.entries(memory.components)) lines.push(`jpsp_memory_bytes summed over the workers, ${when} (MB): ${describeComponents(c)}`);
  const failures = rows.filter((r) => r.ours.failures > 0 || r.bare.failures > 0);
  for (const r of failures)
    lines.push(`WARNING ${r.scenario}: ${r.ours.failures} failed answers from ours, ${r.bare.failures} from bare: figures not comparable`);
  console.log(lines.join('\n'));

  const resultsDir = path.join(REPO_ROOT, 'bench', 'results');
  if (!existsSync(resultsDir)) mkdirSync(resultsDir, { recursive: true });
  const out = values.out ?? path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: {
          cpus: os.cpus().length,
          model: os.cpus()[0]?.model,
          memoryBytes: os.totalmem(),
          node: process.version,
          platform: `${os.platform()} ${os.release()}`,
        },
        settings: { seconds, warmup, connections, soakSeconds, longTail: Number(values['long-tail']) },
        rows,
        memory,
      },
      null,
      2,
    ),
  );
  console.error(`results written to ${path.relative(REPO_ROOT, out)}`);
  if (failures.length > 0) process.exitCode = 1;
}
