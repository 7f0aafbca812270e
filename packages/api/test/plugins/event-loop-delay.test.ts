// The event-loop delay monitor behind /metrics (plugins/event-loop-delay.ts):
// a window sees a block of the loop, each take starts a new window, and
// /metrics reports the window's quantiles and samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventLoopDelayMonitor } from '../../src/plugins/event-loop-delay.ts';
import { build } from '../helper.ts';

const ADMIN = 'admin-secret-1234567890';

test('a window holds the block of the loop it saw, and a take starts the next window', async () => {
  const monitor = eventLoopDelayMonitor();
  try {
    await sleep(20); // let the monitor's timer take samples
    // Hold the loop for 50 ms: the monitor's timer, due within 1 ms, fires at least ~49 ms late.
    const until = Date.now() + 50;
    while (Date.now() < until);
    await sleep(5);
    const window = monitor.take();
    assert.ok(window.samples > 0, 'samples were taken');
    assert.ok(window.max >= 0.045, `the 50 ms block is the window's longest delay: ${window.max} s`);
    assert.ok(window.p50 <= window.p99 && window.p99 <= window.max, JSON.stringify(window));
    // No timer can fire between two synchronous takes: the second window is empty.
    assert.deepEqual(monitor.take(), { p50: 0, p99: 0, max: 0, samples: 0 });
  } finally {
    monitor.stop();
  }
});

test('/metrics: the event-loop delay since the previous scrape, by quantile, and its samples', async (t) => {
  const app = await build(t, { ADMIN_API_KEY: ADMIN });
  const scrape = async () => (await app.inject({ url: '/metrics', headers: { 'x-admin-key': ADMIN } })).body;
  await scrape();
  // A turn of the monitor's timer (its first turn only starts the count), then a block of the loop: the next turn records it.
  await sleep(5);
  const until = Date.now() + 20;
  while (Date.now() < until);
  await sleep(5);
  const text = await scrape();
  const value = (line: RegExp) => Number(line.exec(text)?.[1]);
  const q = Object.fromEntries(
    ['0.5', '0.99', '1'].map((quantile) => [quantile, value(new RegExp(`^jpsp_event_loop_delay_seconds\\{quantile="${quantile}"\\} (\\S+)$`, 'm'))]),
  );
  for (const [quantile, seconds] of Object.entries(q)) assert.ok(Number.isFinite(seconds) && seconds >= 0, `quantile ${quantile}: ${seconds}`);
  assert.ok(q['0.5'] <= q['0.99'] && q['0.99'] <= q['1'], JSON.stringify(q));
  assert.ok(value(/^jpsp_event_loop_delay_samples (\S+)$/m) > 0, 'samples in the window');
  assert.ok(q['1'] >= 0.015, `the block is the window's longest delay: ${q['1']} s`);
});
