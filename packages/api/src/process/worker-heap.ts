// The V8 heap bounds of a cluster worker (decision 0424): node's defaults on a
// machine with many GB of memory let each worker's young generation grow to
// 64 MB semi-spaces (~130 MB committed, resident once used) and its old
// generation grow far past what it keeps alive before collecting. A worker
// holds a bounded working set (the search columns, caches bounded in bytes:
// lib/cache-budget.ts), so it is started with:
// - a young generation of 16 MB semi-spaces;
// - an old generation limit of 1.2 times what the last full collection kept
//   (the collection's marking runs concurrently, off the event loop).
// Measured over the bench's long tail in one process (docs/performance.md,
// "Issue 25, 2026-12-01"): resident 532-549 MB with the defaults, 360-404 MB with the
// young generation bound, 291-297 MB with both; CPU per call within the
// noise of the shared machine. Only workers: the preparation child (a
// catalogue build holds the ~350 MB reading dictionary) and the primary keep
// V8's defaults. With WEB_CONCURRENCY=1 the one process keeps them too (it
// may build the catalogue); `node --max-semi-space-size=16
// --heap-growing-percent=20 packages/api/src/server.ts` gives it the same.
export const WORKER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=20'];

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
