// Checkout issuance: one per subscription, revealed once across handles.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey } from './fixtures.ts';

export function issuanceContract(factory: StoreFactory): void {
  contractTest(factory, 'checkout issuance: one per subscription, revealed once', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const issuance = { subscriptionId: 'sub_1', customerId: 'cus_1', keyId: key.id, sealedKey: 'sealed', revealedAt: null };
    const created = await Promise.all([store.issuance.create(issuance), other.issuance.create({ ...issuance, sealedKey: 'other' })]);
    assert.deepEqual(created.sort(), [false, true]);
    const found = await store.issuance.find('sub_1');
    assert.equal(found?.keyId, key.id);
    assert.equal(await store.issuance.find('sub_none'), null);
    const reveals = await Promise.all([store.issuance.reveal('sub_1'), other.issuance.reveal('sub_1')]);
    const winners = reveals.filter((r) => r !== null);
    assert.equal(winners.length, 1);
    assert.equal(winners[0]!.sealedKey, found!.sealedKey);
    const after = await store.issuance.find('sub_1');
    assert.equal(after?.sealedKey, null);
    assert.ok(after?.revealedAt);
    assert.equal(await store.issuance.reveal('sub_none'), null);
  });
}
