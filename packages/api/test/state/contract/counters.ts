// Counters: an atomic take below the limit, exact across handles.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function countersContract(factory: StoreFactory): void {
  contractTest(factory, 'counters: take below the limit only, per subject and window', async (t) => {
    const { store } = await factory.open(t);
    assert.deepEqual(await store.counters.take('anon', 'a', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.counters.take('anon', 'a', '2025-04-01', 2), { allowed: true, count: 2 });
    assert.deepEqual(await store.counters.take('anon', 'a', '2025-04-01', 2), { allowed: false, count: 2 });
    assert.deepEqual(await store.counters.take('anon', 'a', '2025-04-02', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.counters.take('anon', 'b', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.counters.take('free', 'a', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.counters.take('anon', 'z', '2025-04-01', 0), { allowed: false, count: 0 });
    assert.equal(await store.counters.peek('anon', 'a', '2025-04-01'), 2);
    assert.equal(await store.counters.peek('anon', 'none', '2025-04-01'), 0);
  });

  contractTest(factory, 'counters: concurrent takes on two handles never pass the limit', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? store : other).counters.take('anon', 'x', 'd', 25)));
    assert.equal(results.filter((r) => r.allowed).length, 25);
    assert.equal(await store.counters.peek('anon', 'x', 'd'), 25);
    assert.deepEqual(
      results
        .filter((r) => r.allowed)
        .map((r) => r.count)
        .sort((a, b) => a - b),
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
  });
}
