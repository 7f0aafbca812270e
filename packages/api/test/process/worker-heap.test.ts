// Cluster workers get bounded V8 heaps (process/worker-heap.ts, decision
// 0424) after the primary's own flags; a flag the operator gave (on the
// command line or in NODE_OPTIONS) is kept as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WORKER_HEAP_FLAGS, workerExecArgv } from '../../src/process/worker-heap.ts';

test("a worker's flags: the primary's, then the heap bounds it does not name", () => {
  assert.deepEqual(workerExecArgv(['--disable-warning=ExperimentalWarning']), ['--disable-warning=ExperimentalWarning', ...WORKER_HEAP_FLAGS]);
  assert.deepEqual(workerExecArgv(['--max-semi-space-size=4']), ['--max-semi-space-size=4', '--heap-growing-percent=20']);
  assert.deepEqual(workerExecArgv([], '--max-semi-space-size=32 --enable-source-maps'), ['--heap-growing-percent=20']);
  assert.ok(WORKER_HEAP_FLAGS.includes('--max-semi-space-size=16'));
});
