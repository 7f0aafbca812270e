// Referrals: stored by token hash, listed per advisor, converted once.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function referralsContract(factory: StoreFactory): void {
  contractTest(factory, 'referrals: find by token hash, convert once, list per advisor', async (t) => {
    const { store } = await factory.open(t);
    const a = await store.advisors.create({
      firmName: 'A',
      firmType: 'tax',
      specialties: ['subsidy'],
      prefecture: '東京都',
      fields: {},
      ownerKeyHash: null,
      stripeAccountId: null,
      disabledReason: null,
      verifiedAt: null,
    });
    const ref = await store.referrals.create({
      advisorId: a.id,
      tokenHash: 'th',
      tokenPrefix: 'rf_1',
      sourceProgramId: 'P1',
      clickedAt: null,
      convertedAt: null,
      conversionValueYen: null,
      commissionYen: null,
      commissionPaidAt: null,
    });
    assert.equal((await store.referrals.findByTokenHash('th'))?.id, ref.id);
    const converted = await store.referrals.convert('th', 100000, 5000);
    assert.equal(converted?.commissionYen, 5000);
    assert.ok(converted?.convertedAt);
    assert.equal(await store.referrals.convert('th', 1, 1), null, 'a referral converts once');
    assert.equal(await store.referrals.convert('none', 1, 1), null);
    assert.deepEqual(
      (await store.referrals.listForAdvisor(a.id)).map((r) => r.id),
      [ref.id],
    );
  });
}
