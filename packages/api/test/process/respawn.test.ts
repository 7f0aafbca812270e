// The cluster primary's restart delay: a crash now and then is repaired at
// once, a crash loop waits longer and longer (capped), and crashes age out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RespawnBackoff } from '../../src/process/respawn.ts';

test('a crash loop doubles the wait up to the cap; a quiet minute resets it', () => {
  const backoff = new RespawnBackoff({ baseMs: 500, maxMs: 8000, windowMs: 60_000 });
  const delays = [0, 1, 2, 3, 4, 5, 6].map((i) => backoff.delayAfterCrash(1000 + i * 100));
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
  assert.equal(backoff.delayAfterCrash(1000 + 600 + 60_000), 500, 'crashes older than the window are forgotten');
});
