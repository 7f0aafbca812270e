// Keys: create, find, list, revoke, subscription helpers and caps.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function keysContract(factory: StoreFactory): void {
  contractTest(factory, 'keys: create, find, list, revoke by prefix and id, subscription helpers, caps', async (t) => {
    const { store } = await factory.open(t);
    const free = await store.keys.create({ keyHash: 'h-free', prefix: 'am_free0001', tier: 'free' });
    assert.equal(free.tier, 'free');
    assert.equal(free.status, 'active');
    assert.equal(free.customerId, null);
    assert.equal(free.monthlyCapYen, null);
    assert.match(free.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    const paid = await store.keys.create({ keyHash: 'h-paid', prefix: 'am_paid0001', tier: 'paid', customerId: 'cus_9', subscriptionId: 'sub_9' });
    await assert.rejects(store.keys.create({ keyHash: 'h-paid', prefix: 'x', tier: 'paid' }), 'a key hash is unique');

    assert.equal((await store.keys.findByHash('h-free'))?.id, free.id);
    assert.equal(await store.keys.findByHash('nope'), null);
    assert.equal((await store.keys.findById(paid.id))?.customerId, 'cus_9');
    assert.deepEqual(
      (await store.keys.list()).map((k) => k.prefix),
      ['am_free0001', 'am_paid0001'],
    );

    await store.keys.setMonthlyCap(paid.id, 300);
    assert.equal((await store.keys.findById(paid.id))?.monthlyCapYen, 300);
    await store.keys.setMonthlyCap(paid.id, null);
    assert.equal((await store.keys.findById(paid.id))?.monthlyCapYen, null);

    await store.keys.setSubscriptionStatus('sub_9', 'past_due');
    assert.equal((await store.keys.findBySubscription('sub_9'))?.subscriptionStatus, 'past_due');
    assert.equal(await store.keys.findBySubscription('sub_none'), null);

    assert.equal(await store.keys.revoke('am_free0001'), 1);
    assert.equal(await store.keys.revoke('am_free0001'), 0, 'revoking twice changes nothing');
    const revoked = await store.keys.findByHash('h-free');
    assert.equal(revoked?.status, 'revoked');
    assert.ok(revoked?.revokedAt);
    assert.equal(await store.keys.revokeForSubscription('sub_9'), 1);
    assert.equal((await store.keys.findById(paid.id))?.status, 'revoked');
    const third = await store.keys.create({ keyHash: 'h-3', prefix: 'am_third001', tier: 'free' });
    assert.equal(await store.keys.revoke(third.id), 1);
  });
}
