// `npx node bench/profile.ts --only search-mix --duration 5`: where the time of
// one scenario goes. Starts our server (server.ts, one process, the request
// log to /dev/null as the benchmark sends it nowhere visible) under
// `node --cpu-prof`, loads it with the benchmark's requests and paid key,
// stops it, and prints the top self-time frames and the time per file/package
// from the profile (the .cpuprofile is kept under var/profile/ for a viewer).
//
// A tool for decisions (docs/performance.md "Profiles"), not a measurement:
// profiling slows the server down. With --no-profile it reports instead the
// server's CPU time per request (from /proc): on a machine shared with other
// work, req/s follow the neighbours, CPU ms per request much less so.
// --root runs another checkout's server (e.g. a worktree of main) with this
// driver, for before/after figures.
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { FakeStripe } from '../packages/api/test/fakes/stripe-server.ts';
import { REPO_ROOT, runCli } from './lib/processes.ts';
import { buildScenarios } from './lib/scenarios.ts';
import { runLoad } from './lib/load.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'search-mix' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    top: { type: 'string', default: '25' },
    port: { type: 'string', default: '38411' },
    'no-profile': { type: 'boolean', default: false },
    root: { type: 'string' },
  },
});
const root = values.root ? path.resolve(values.root) : REPO_ROOT;
const profiling = !values['no-profile'];

const dataDir = path.join(root, 'var', 'bench');
const profileDir = path.join(REPO_ROOT, 'var', 'profile');
rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });

const stripe = await new FakeStripe().start();
const env: Record<string, string> = { DATA_DIR: dataDir, ANON_DAILY_LIMIT: '1000000000', FREE_DAILY_LIMIT: '1000000000', ...stripe.env() };
const lastLine = (s: string) => s.trim().split('\n').at(-1)!.trim();
mkdirSync(dataDir, { recursive: true });
const keys = {
  paid: lastLine(runCli(['keys', 'create', '--tier', 'paid', '--customer-id', 'cus_profile'], env)),
  free: lastLine(runCli(['keys', 'create', '--tier', 'free'], env)),
};
const port = Number(values.port);
const child = spawn(
  process.execPath,
  [
    '--disable-warning=ExperimentalWarning',
    ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    path.join(root, 'packages', 'api', 'src', 'server.ts'),
  ],
  { cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '1' }, stdio: ['ignore', 'ignore', 'inherit'] },
);
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {
    // not yet listening
  }
  if (i > 600) throw new Error('server not ready');
  await new Promise((r) => setTimeout(r, 200));
}

const wanted = new Set(values.only.split(','));
const scenarios = buildScenarios(path.join(dataDir, 'catalog.sqlite'), keys, 2500).filter((s) => wanted.has(s.name));
// Samples before this instant (start-up, catalogue load) and after the load are left out of the
// figures: V8 stamps samples with the monotonic clock hrtime reads (µs).
const loadStartUs = Number(process.hrtime.bigint() / 1000n);
/** CPU seconds (user + system) the server process has used so far. */
const cpuSeconds = (): number => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
for (const s of scenarios) {
  // A short warm-up (JIT, caches), then the measured run.
  await runLoad(url, s.requests, 1, Number(values.connections));
  const cpu0 = cpuSeconds();
  const r = await runLoad(url, s.requests, Number(values.duration), Number(values.connections));
  const cpuMs = ((cpuSeconds() - cpu0) * 1000) / Math.max(1, r.total);
  console.log(
    `${s.name}: ${Math.round(r.rps)} req/s${profiling ? ' (under the profiler)' : ''}, p99 ${r.p99} ms, failures ${r.failures}, server CPU ${cpuMs.toFixed(3)} ms/request`,
  );
}
// … and after this one (the shutdown, with the meter flusher's last flush).
const loadEndUs = Number(process.hrtime.bigint() / 1000n);
const exited = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGTERM');
await exited;
await stripe.stop();
if (!profiling) process.exit(0);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };
// Hits per node during the load only.
const hits = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at >= loadStartUs && at <= loadEndUs) hits.set(id, (hits.get(id) ?? 0) + 1);
});
for (const n of profile.nodes) n.hitCount = hits.get(n.id) ?? 0;
const total = profile.nodes.reduce((n, x) => n + x.hitCount, 0);
const where = (u: string): string => {
  if (!u) return '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1];
  if (u.startsWith('node:')) return u;
  return path.relative(REPO_ROOT, u.replace(/^file:\/\//, ''));
};
const byFrame = new Map<string, number>();
const byFile = new Map<string, number>();
for (const n of profile.nodes) {
  const f = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  byFrame.set(f, (byFrame.get(f) ?? 0) + n.hitCount);
  const w = where(n.callFrame.url);
  byFile.set(w, (byFile.get(w) ?? 0) + n.hitCount);
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
console.log(`\nprofile: ${path.join('var', 'profile', file)} (${total} samples during the load)\n\ntop self time, by frame:`);
for (const [f, n] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${pct(n)}  ${f}`);
// Inclusive time of our own functions (a frame counted once per sample even when recursive).
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
for (const n of profile.nodes) {
  if (n.hitCount === 0) continue;
  const seen = new Set<string>();
  for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
    const f = byId.get(id)!.callFrame;
    const w = where(f.url);
    if (!w.startsWith('packages/') && !w.startsWith('bench/')) continue;
    const k = `${f.functionName || '(anonymous)'} ${w}:${f.lineNumber + 1}`;
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + n.hitCount);
  }
}
console.log('\ninclusive time, our code:');
for (const [f, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${pct(n)}  ${f}`);
console.log('\nself time by file or package:');
for (const [f, n] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${pct(n)}  ${f}`);

// Each sample to a component: to the meter flusher when it is anywhere on
// the stack (its HTTP's socket writes are its own), else to the innermost
// frame that belongs to one (the socket write of an answer is the HTTP
// server's, though the compression plugin's hook is on the stack above it).
const FLUSHER = /billing\/meter-flusher|node_modules\/stripe\/|node:_http_client|node:_http_agent/;
const COMPONENTS: [string, RegExp][] = [
  ['state store (group commit, SQL)', /state\/(group-commit|sqlite|postgres|store|repositories|key-cache)/],
  ['request log (pino)', /plugins\/request-log|node_modules\/(pino|sonic-boom|thread-stream)\//],
  ['metrics hook (prom-client)', /plugins\/metrics|node_modules\/prom-client\//],
  ['auth', /plugins\/auth|access\/keys/],
  ['limits', /plugins\/limits/],
  ['usage hook', /plugins\/usage/],
  ['route and answer', /routes\/|http\/answers|http\/serialization|catalog\//],
  ['compression plugin', /@fastify\/compress|http\/compression/],
  ['cors, etag, request id', /@fastify\/cors|plugins\/(etag|request-id)/],
  ['fastify (routing, hooks, reply)', /node_modules\/(fastify|find-my-way|avvio|light-my-request)\//],
  ['node http server and socket', /node:_http_|node:net|node:internal\/streams|node:internal\/stream_base/],
];
const components = new Map<string, number>();
let inWindow = 0;
at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at < loadStartUs || at > loadEndUs) return;
  inWindow++;
  const leaf = byId.get(id)!.callFrame.functionName;
  let name = leaf === '(idle)' ? 'idle' : leaf === '(garbage collector)' ? 'garbage collector' : null;
  const stack: string[] = [];
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) stack.push(byId.get(x)!.callFrame.url);
  if (!name && stack.some((u) => FLUSHER.test(u))) name = 'meter flusher (Stripe client, its HTTP)';
  for (const u of stack) {
    if (name) break;
    name = COMPONENTS.find(([, test]) => test.test(u))?.[0] ?? null;
  }
  name ??= leaf === 'writev' || leaf === 'writeString' || leaf === 'writeUtf8String' ? 'node http server and socket' : 'other';
  components.set(name, (components.get(name) ?? 0) + 1);
});
console.log('\nby component (see COMPONENTS):');
for (const [c, n] of [...components].sort((a, b) => b[1] - a[1])) console.log(`${((100 * n) / inWindow).toFixed(1).padStart(5)}%  ${c}`);
