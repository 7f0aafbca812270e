// Advisors: create, filter (a specialty matches whole elements only), verify.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function advisorsContract(factory: StoreFactory): void {
  contractTest(factory, 'advisors: create, filter, verify', async (t) => {
    const { store } = await factory.open(t);
    const base = { ownerKeyHash: null, stripeAccountId: null, disabledReason: null, verifiedAt: null, fields: { phone: '03' } };
    const a = await store.advisors.create({ ...base, firmName: 'A', firmType: 'tax', specialties: ['subsidy', 'tax_credit'], prefecture: '東京都' });
    await store.advisors.create({ ...base, firmName: 'B', firmType: 'legal', specialties: ['subsidy%'], prefecture: '大阪府' });
    assert.deepEqual((await store.advisors.get(a.id))?.fields, { phone: '03' });
    assert.equal(await store.advisors.get(9999), null);
    const all = await store.advisors.list({ verifiedOnly: false, limit: 10, offset: 0 });
    assert.equal(all.total, 2);
    assert.deepEqual(
      (await store.advisors.list({ specialty: 'subsidy', verifiedOnly: false, limit: 10, offset: 0 })).rows.map((r) => r.firmName),
      ['A'],
    );
    assert.deepEqual((await store.advisors.list({ specialty: 'tax', verifiedOnly: false, limit: 10, offset: 0 })).total, 0, 'whole elements only');
    assert.deepEqual(
      (await store.advisors.list({ prefecture: '大阪府', verifiedOnly: false, limit: 10, offset: 0 })).rows.map((r) => r.firmName),
      ['B'],
    );
    assert.equal((await store.advisors.list({ verifiedOnly: true, limit: 10, offset: 0 })).total, 0);
    assert.equal(await store.advisors.verify(a.id, 'owner-hash'), true);
    assert.equal(await store.advisors.verify(9999, null), false);
    const verified = await store.advisors.list({ verifiedOnly: true, limit: 10, offset: 0 });
    assert.deepEqual(
      verified.rows.map((r) => [r.firmName, r.ownerKeyHash]),
      [['A', 'owner-hash']],
    );
    assert.equal((await store.advisors.list({ verifiedOnly: false, limit: 1, offset: 1 })).rows[0].firmName, 'B');
  });
}
