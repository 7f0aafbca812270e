// Admin analytics: errors by route, funnel by day and tier, key cohorts.
import assert from 'node:assert/strict';
import { jstDate } from '../../../src/lib/time.ts';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey, usage } from './fixtures.ts';

export function analyticsContract(factory: StoreFactory): void {
  contractTest(factory, 'admin views: errors by route, funnel by day and tier, key cohorts', async (t) => {
    const { store } = await factory.open(t);
    await store.analytics.recordError('/v1/programs/:unified_id', 404);
    await store.analytics.recordError('/v1/programs/:unified_id', 404);
    await store.analytics.recordError('/v1/ping', 401);
    const errors = await store.analytics.errors(10);
    assert.deepEqual(
      errors.map((e) => [e.route, e.status, e.count]),
      [
        ['/v1/programs/:unified_id', 404, 2],
        ['/v1/ping', 401, 1],
      ],
    );
    assert.equal((await store.analytics.errors(1)).length, 1);

    const key = await paidKey(store);
    const now = new Date();
    await store.usage.record(usage({ keyId: key.id, createdAt: now.toISOString(), billingMonth: '2099-01' }), null);
    await store.counters.take('anon', 'addr', jstDate(now), 10);
    await store.counters.take('anon', 'addr2', jstDate(now), 10);
    const funnel = await store.analytics.funnel(7);
    assert.deepEqual(funnel, [
      { date: jstDate(now), tier: 'anonymous', requests: 2 },
      { date: jstDate(now), tier: 'paid', requests: 1 },
    ]);
    const cohorts = await store.analytics.cohorts();
    assert.deepEqual(cohorts, [{ month: key.createdAt.slice(0, 7), keys: 1, active: 1 }]);
  });
}
