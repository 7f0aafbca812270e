// Cluster workers get bounded V8 heaps (process/worker-heap.ts, decision
// 0424) after the primary's own flags; a flag the operator gave (on the
// command line or in NODE_OPTIONS) is kept as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WORKER_HEAP_FLAGS, WORKER_MALLOC_ENV, workerEnv, workerExecArgv } from '../../src/process/worker-heap.ts';

test("a worker's flags: the primary's, then the heap bounds it does not name", () => {
  assert.deepEqual(workerExecArgv(['--disable-warning=ExperimentalWarning']), ['--disable-warning=ExperimentalWarning', ...WORKER_HEAP_FLAGS]);
  assert.deepEqual(workerExecArgv(['--max-semi-space-size=16']), ['--max-semi-space-size=16', '--heap-growing-percent=20']);
  assert.deepEqual(workerExecArgv([], '--max-semi-space-size=32 --enable-source-maps'), ['--heap-growing-percent=20']);
  assert.ok(WORKER_HEAP_FLAGS.includes('--max-semi-space-size=4'));
});

test("a worker's C heap: two arenas, fixed trim and mmap thresholds, unless the operator set them", () => {
  assert.deepEqual(workerEnv({}), { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_TOP_PAD_: '0' });
  assert.deepEqual(workerEnv({ MALLOC_ARENA_MAX: '4' }), { MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_TOP_PAD_: '0' });
  assert.deepEqual(workerEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }), {});
  assert.deepEqual(workerEnv({ GLIBC_TUNABLES: 'glibc.pthread.rseq=0' }), WORKER_MALLOC_ENV);
});
