// Billing cache: put replaces, get returns the time it was cached.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function billingCacheContract(factory: StoreFactory): void {
  contractTest(factory, 'billing cache: put replaces, get returns the time it was cached', async (t) => {
    const { store } = await factory.open(t);
    assert.equal(await store.billingCache.get('cus_1'), null);
    const at1 = await store.billingCache.put('cus_1', '{"a":1}');
    assert.deepEqual(await store.billingCache.get('cus_1'), { payload: '{"a":1}', cachedAt: at1 });
    const at2 = await store.billingCache.put('cus_1', '{"a":2}');
    assert.deepEqual(await store.billingCache.get('cus_1'), { payload: '{"a":2}', cachedAt: at2 });
  });
}
