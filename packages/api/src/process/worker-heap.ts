// The V8 heap bounds of a cluster worker (decisions 0424, 0428, 0430): node's
// defaults on a machine with many GB of memory let each worker's young
// generation grow to 64 MB semi-spaces (~130 MB committed, resident once
// used) and its old generation grow far past what it keeps alive before
// collecting. A worker holds a bounded working set (the search columns,
// caches bounded in bytes: lib/cache-budget.ts), so it is started with:
// - a young generation of 4 MB semi-spaces (decision 0430; 8 MB in 0428,
//   16 MB in 0424): with 16 MB, the
//   Buffers a worker allocates per answer (a batch's joined records, pages
//   and their compressed forms) reached V8's external-memory trigger before
//   the young generation filled, so they were freed by full collections
//   (46 full and no young collections over 8,000 batch calls) instead of
//   scavenges; 8 MB scavenges free them first (8 full, 77 young); 4 MB
//   holds 8 MB less resident per worker (two semi-spaces of 4, not 8) with
//   the same full collections, CPU per request within the spread of
//   identical runs;
// - an old generation limit of 1.2 times what the last full collection kept
//   (the collection's marking runs concurrently, off the event loop).
// Measured as the tree `npm start` starts over the same fixed traffic
// (bench/fixed-traffic.ts; docs/performance.md, "Issue 25, 2026-12-01" and
// "2026-12-02 (later)", "2026-12-03"). Only workers: the preparation child (a catalogue
// build holds the ~350 MB reading dictionary) and the primary keep V8's
// defaults. With WEB_CONCURRENCY=1 the one process keeps them too (it may
// build the catalogue); `node --max-semi-space-size=4
// --heap-growing-percent=20 packages/api/src/server.ts` gives it the same.
export const WORKER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=20'];

/**
 * A worker's node flags: the primary's own (`execArgv`), then each of
 * WORKER_HEAP_FLAGS that neither they nor NODE_OPTIONS name (an operator's
 * choice is kept as given).
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const name = (flag: string) => flag.split('=')[0];
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].map(name));
  return [...execArgv, ...WORKER_HEAP_FLAGS.filter((f) => !given.has(name(f)))];
}

// The C heap of a cluster worker (decision 0427): glibc's allocator, given
// through the worker's environment (it reads these variables when the
// process starts). Node's threads (V8's compiler and GC helpers, libuv's
// pool) each get an arena of their own by default, up to 8 per core, and
// freed memory in the middle of an arena stays resident; glibc also raises
// its mmap threshold (to at most 32 MB) each time a large mmapped block is
// freed, so later large Buffers come from the arenas and fragment them. A
// worker therefore gets:
// - MALLOC_ARENA_MAX=2: two arenas for all its threads;
// - MALLOC_TRIM_THRESHOLD_=131072 (128 KB, glibc's default, now fixed):
//   naming it turns off the dynamic thresholds, so blocks of 128 KB and more
//   stay mmapped and go back to the system when freed, and free memory at
//   the top of an arena over 128 KB is given back;
// - MALLOC_TOP_PAD_=0: an arena grows by what is asked, not 128 KB more.
// Measured over the same fixed traffic (docs/performance.md, "Issue 25,
// 2026-12-02"). Only workers (the primary and the preparation child keep
// glibc's defaults); a variable the operator set, or GLIBC_TUNABLES naming
// the allocator, is kept as given; other allocators ignore them.
export const WORKER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_TOP_PAD_: '0',
};

/** What a worker's environment adds to the primary's: each of WORKER_MALLOC_ENV the operator did not set. */
export function workerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  if (env.GLIBC_TUNABLES?.includes('glibc.malloc.')) return {};
  return Object.fromEntries(Object.entries(WORKER_MALLOC_ENV).filter(([name]) => env[name] === undefined));
}
