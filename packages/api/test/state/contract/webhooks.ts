// Webhooks: an event id is claimed once (and again after a release);
// payment failures are recorded.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function webhooksContract(factory: StoreFactory): void {
  contractTest(factory, 'webhook events are claimed once; payment failures are recorded', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const claims = await Promise.all([store.webhooks.claim('evt_1', 'invoice.paid'), other.webhooks.claim('evt_1', 'invoice.paid')]);
    assert.deepEqual(claims.sort(), [false, true]);
    assert.equal(await store.webhooks.claim('evt_2', 'invoice.paid'), true);
    // A claim released after a failed processing can be claimed again (the provider's retry runs it).
    await store.webhooks.release('evt_2');
    assert.equal(await store.webhooks.claim('evt_2', 'invoice.paid'), true);
    assert.equal(await store.webhooks.claim('evt_2', 'invoice.paid'), false);
    await store.webhooks.recordPaymentFailure('cus_1', 'sub_1', 'in_1');
    await store.webhooks.recordPaymentFailure(null, null, null);
  });
}
