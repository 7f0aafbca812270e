// `npm start`'s entry (decision 0432): it fills the compile cache for this
// process's own modules in a child, then imports server.ts. Plain JavaScript
// on purpose: Node strips a TypeScript entry's types with its WebAssembly
// stripper (amaro) before any of our code can run, and a process that loaded
// the stripper keeps it, ~20 MB resident, for its life. On the first start of
// a checkout (a fresh clone, a deploy, a changed file of the primary) the
// cluster primary did just that: 93-95 MB resident against 72 MB on a warm
// cache. Now the child strips what is not cached yet (server.ts, the primary's
// modules, or the single process's app) and writes the cache; this process
// then reads all of it and never loads the stripper. On a warm cache the
// child only reads (a node start and the primary's modules: ~0.1 s).
// Without NODE_COMPILE_CACHE (set by the start script) there is no cache to
// fill: server.ts is imported as before, and enables the cache itself. A
// cluster worker runs this file too (node:cluster forks the primary's entry)
// and has its cache filled by the primary's own child (decision 0426): it
// only imports server.ts.
import cluster from 'node:cluster';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
// The same argument as process/roles.ts (WARM_OWN_MODULES_ONLY): read there by server.ts.
const WARM_OWN_MODULES_ONLY = '--warm-own-modules';

if (cluster.isPrimary && process.env.NODE_COMPILE_CACHE && process.env.NODE_DISABLE_COMPILE_CACHE !== '1') {
  // Same node flags (the cache is keyed by them) and environment; a failed child only leaves this process to strip.
  spawnSync(process.execPath, [...process.execArgv, SERVER, WARM_OWN_MODULES_ONLY], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
}
await import('./server.ts');
