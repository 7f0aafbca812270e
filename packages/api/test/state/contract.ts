// The StateStore contract: one suite, run against every implementation
// (sqlite.test.ts, postgres.test.ts). Concurrency cases use two handles on
// the same database, as two server processes would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { StateStore, UsageEvent } from '../../src/state/store.ts';
import type { StoreFactory } from './stores.ts';
import { MAX_METER_ATTEMPTS } from '../../src/state/sql-store.ts';

function usage(over: Partial<UsageEvent> = {}): UsageEvent {
  return {
    eventId: randomUUID(),
    keyId: 1,
    customerId: 'cus_1',
    tier: 'paid',
    method: 'GET',
    route: '/v1/programs/search',
    status: 200,
    billable: true,
    amountYen: 3,
    billingMonth: '2025-04',
    createdAt: '2025-04-10T01:00:00.000Z',
    ...over,
  };
}

async function paidKey(store: StateStore, n = 1) {
  return store.createKey({ keyHash: `hash-${n}-${randomUUID()}`, prefix: `am_test${n}`, tier: 'paid', customerId: `cus_${n}`, subscriptionId: `sub_${n}` });
}

export function stateContract(factory: StoreFactory): void {
  const opts = { skip: factory.skip };
  const name = (s: string) => `${factory.kind}: ${s}`;

  test(name('migrations are versioned, recorded and idempotent across handles'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    await store.migrate();
    const [a, b] = await Promise.all([reopen(), reopen()]);
    await Promise.all([a.migrate(), b.migrate()]);
    assert.equal(await store.ping(), true);
    const k = await paidKey(a);
    assert.equal((await b.findKeyById(k.id))?.keyHash, k.keyHash);
  });

  test(name('a setting is created once; the first writer wins across handles'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const values = await Promise.all([
      store.getOrCreateSetting('salt', () => 'first'),
      other.getOrCreateSetting('salt', () => 'second'),
    ]);
    assert.equal(values[0], values[1]);
    assert.equal(await store.getOrCreateSetting('salt', () => 'third'), values[0]);
  });

  test(name('keys: create, find, list, revoke by prefix and id, subscription helpers, caps'), opts, async (t) => {
    const { store } = await factory.open(t);
    const free = await store.createKey({ keyHash: 'h-free', prefix: 'am_free0001', tier: 'free' });
    assert.equal(free.tier, 'free');
    assert.equal(free.status, 'active');
    assert.equal(free.customerId, null);
    assert.equal(free.monthlyCapYen, null);
    assert.match(free.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    const paid = await store.createKey({ keyHash: 'h-paid', prefix: 'am_paid0001', tier: 'paid', customerId: 'cus_9', subscriptionId: 'sub_9' });
    await assert.rejects(store.createKey({ keyHash: 'h-paid', prefix: 'x', tier: 'paid' }), 'a key hash is unique');

    assert.equal((await store.findKeyByHash('h-free'))?.id, free.id);
    assert.equal(await store.findKeyByHash('nope'), null);
    assert.equal((await store.findKeyById(paid.id))?.customerId, 'cus_9');
    assert.deepEqual((await store.listKeys()).map((k) => k.prefix), ['am_free0001', 'am_paid0001']);

    await store.setMonthlyCap(paid.id, 300);
    assert.equal((await store.findKeyById(paid.id))?.monthlyCapYen, 300);
    await store.setMonthlyCap(paid.id, null);
    assert.equal((await store.findKeyById(paid.id))?.monthlyCapYen, null);

    await store.setSubscriptionStatus('sub_9', 'past_due');
    assert.equal((await store.findKeyBySubscription('sub_9'))?.subscriptionStatus, 'past_due');
    assert.equal(await store.findKeyBySubscription('sub_none'), null);

    assert.equal(await store.revokeKey('am_free0001'), 1);
    assert.equal(await store.revokeKey('am_free0001'), 0, 'revoking twice changes nothing');
    const revoked = await store.findKeyByHash('h-free');
    assert.equal(revoked?.status, 'revoked');
    assert.ok(revoked?.revokedAt);
    assert.equal(await store.revokeKeysForSubscription('sub_9'), 1);
    assert.equal((await store.findKeyById(paid.id))?.status, 'revoked');
    const third = await store.createKey({ keyHash: 'h-3', prefix: 'am_third001', tier: 'free' });
    assert.equal(await store.revokeKey(third.id), 1);
  });

  test(name('counters: take below the limit only, per subject and window'), opts, async (t) => {
    const { store } = await factory.open(t);
    assert.deepEqual(await store.takeCounter('anon', 'a', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.takeCounter('anon', 'a', '2025-04-01', 2), { allowed: true, count: 2 });
    assert.deepEqual(await store.takeCounter('anon', 'a', '2025-04-01', 2), { allowed: false, count: 2 });
    assert.deepEqual(await store.takeCounter('anon', 'a', '2025-04-02', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.takeCounter('anon', 'b', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.takeCounter('free', 'a', '2025-04-01', 2), { allowed: true, count: 1 });
    assert.deepEqual(await store.takeCounter('anon', 'z', '2025-04-01', 0), { allowed: false, count: 0 });
    assert.equal(await store.peekCounter('anon', 'a', '2025-04-01'), 2);
    assert.equal(await store.peekCounter('anon', 'none', '2025-04-01'), 0);
  });

  test(name('counters: concurrent takes on two handles never pass the limit'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? store : other).takeCounter('anon', 'x', 'd', 25)),
    );
    assert.equal(results.filter((r) => r.allowed).length, 25);
    assert.equal(await store.peekCounter('anon', 'x', 'd'), 25);
    assert.deepEqual(results.filter((r) => r.allowed).map((r) => r.count).sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => i + 1));
  });

  test(name('usage: spend within the cap, idempotent event ids, outbox for billable customer events'), opts, async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const first = usage({ keyId: key.id });
    assert.equal(await store.recordUsage(first, 7), true);
    assert.equal(await store.recordUsage(first, 7), true, 'a replayed event id is accepted');
    assert.equal(await store.monthlySpend(key.id, '2025-04'), 3, 'and not charged twice');
    assert.equal(await store.recordUsage(usage({ keyId: key.id }), 7), true);
    assert.equal(await store.recordUsage(usage({ keyId: key.id }), 7), false, '9 > 7: refused');
    assert.equal(await store.monthlySpend(key.id, '2025-04'), 6);
    assert.equal(await store.monthlySpend(key.id, '2025-05'), 0);
    // Not billable: recorded, not charged, not queued.
    assert.equal(await store.recordUsage(usage({ keyId: key.id, route: '/v1/ping', billable: false, amountYen: 0 }), 7), true);
    // A new month starts from zero.
    assert.equal(await store.recordUsage(usage({ keyId: key.id, billingMonth: '2025-05', createdAt: '2025-05-01T00:00:00.000Z' }), 7), true);
    // No cap: unguarded.
    assert.equal(await store.recordUsage(usage({ keyId: key.id }), null), true);

    const summary = await store.usageSummary(key.id, '2025-04');
    assert.equal(summary.requests, 4);
    assert.equal(summary.billableRequests, 3);
    assert.equal(summary.spendYen, 9);
    assert.deepEqual(summary.perDay, [{ date: '2025-04-10', requests: 4, billable: 3 }]);
    assert.deepEqual(summary.topEndpoints, [
      { route: '/v1/programs/search', requests: 3 },
      { route: '/v1/ping', requests: 1 },
    ]);

    const pending = await store.pendingMeterEvents(100);
    assert.equal(pending.length, 4, 'three April events and one May event');
    assert.ok(pending.every((p) => p.customerId === 'cus_1' && p.value === 1 && p.attempts === 0));
    assert.equal(pending.find((p) => p.eventId === first.eventId)?.timestamp, Date.parse(first.createdAt) / 1000);
  });

  test(name('usage: per-day series in Japan time; events without a customer are not queued'), opts, async (t) => {
    const { store } = await factory.open(t);
    const key = await store.createKey({ keyHash: 'hx', prefix: 'am_x', tier: 'paid' });
    // 2025-04-10T15:30Z is 2025-04-11 00:30 in Japan.
    await store.recordUsage(usage({ keyId: key.id, customerId: null, createdAt: '2025-04-10T15:30:00.000Z' }), null);
    await store.recordUsage(usage({ keyId: key.id, customerId: null, createdAt: '2025-04-10T14:30:00.000Z' }), null);
    const summary = await store.usageSummary(key.id, '2025-04');
    assert.deepEqual(summary.perDay.map((d) => d.date), ['2025-04-10', '2025-04-11']);
    assert.deepEqual(await store.pendingMeterEvents(10), []);
  });

  test(name('usage: concurrent billable events on two handles never exceed the cap'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).recordUsage(usage({ keyId: key.id }), 30)),
    );
    assert.equal(results.filter(Boolean).length, 10);
    assert.equal(await store.monthlySpend(key.id, '2025-04'), 30);
    assert.equal((await store.usageSummary(key.id, '2025-04')).requests, 10, 'refused events leave nothing behind');
    assert.equal((await store.pendingMeterEvents(100)).length, 10);
  });

  test(name('meter outbox: sent events leave the queue, failures count attempts'), opts, async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const events = [usage({ keyId: key.id }), usage({ keyId: key.id }), usage({ keyId: key.id })];
    for (const e of events) await store.recordUsage(e, null);
    assert.equal((await store.pendingMeterEvents(2)).length, 2, 'limit respected');
    await store.markMeterEventsSent([events[0].eventId]);
    await store.markMeterEventsFailed([events[1].eventId], 'boom');
    await store.markMeterEventsFailed([events[1].eventId], 'boom again');
    await store.markMeterEventsSent([]);
    const pending = await store.pendingMeterEvents(10);
    assert.deepEqual(pending.map((p) => p.eventId).sort(), [events[1].eventId, events[2].eventId].sort());
    assert.equal(pending.find((p) => p.eventId === events[1].eventId)?.attempts, 2);
    for (let i = 2; i < MAX_METER_ATTEMPTS; i++) await store.markMeterEventsFailed([events[1].eventId], 'refused');
    assert.deepEqual((await store.pendingMeterEvents(10)).map((p) => p.eventId), [events[2].eventId], 'an event refused too often is parked');
  });

  test(name('feedback rows get increasing ids'), opts, async (t) => {
    const { store } = await factory.open(t);
    const base = { rating: 5, endpoint: '/v1/ping', requestId: 'r1', keyHash: null, customerId: null, tier: null, addressHash: 'abc' };
    const a = await store.insertFeedback({ message: 'one', ...base });
    const b = await store.insertFeedback({ message: 'two', ...base, rating: null });
    assert.ok(Number.isInteger(a) && b > a);
  });

  test(name('webhook events are claimed once; payment failures are recorded'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const claims = await Promise.all([store.claimWebhookEvent('evt_1', 'invoice.paid'), other.claimWebhookEvent('evt_1', 'invoice.paid')]);
    assert.deepEqual(claims.sort(), [false, true]);
    assert.equal(await store.claimWebhookEvent('evt_2', 'invoice.paid'), true);
    // A claim released after a failed processing can be claimed again (the provider's retry runs it).
    await store.releaseWebhookEvent('evt_2');
    assert.equal(await store.claimWebhookEvent('evt_2', 'invoice.paid'), true);
    assert.equal(await store.claimWebhookEvent('evt_2', 'invoice.paid'), false);
    await store.recordPaymentFailure('cus_1', 'sub_1', 'in_1');
    await store.recordPaymentFailure(null, null, null);
  });

  test(name('checkout issuance: one per subscription, revealed once'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const issuance = { subscriptionId: 'sub_1', customerId: 'cus_1', keyId: key.id, sealedKey: 'sealed', revealedAt: null };
    const created = await Promise.all([store.createIssuance(issuance), other.createIssuance({ ...issuance, sealedKey: 'other' })]);
    assert.deepEqual(created.sort(), [false, true]);
    const found = await store.findIssuance('sub_1');
    assert.equal(found?.keyId, key.id);
    assert.equal(await store.findIssuance('sub_none'), null);
    const reveals = await Promise.all([store.revealIssuance('sub_1'), other.revealIssuance('sub_1')]);
    const winners = reveals.filter((r) => r !== null);
    assert.equal(winners.length, 1);
    assert.equal(winners[0]!.sealedKey, found!.sealedKey);
    const after = await store.findIssuance('sub_1');
    assert.equal(after?.sealedKey, null);
    assert.ok(after?.revealedAt);
    assert.equal(await store.revealIssuance('sub_none'), null);
  });

  test(name('billing cache: put replaces, get returns the time it was cached'), opts, async (t) => {
    const { store } = await factory.open(t);
    assert.equal(await store.getBillingCache('cus_1'), null);
    const at1 = await store.putBillingCache('cus_1', '{"a":1}');
    assert.deepEqual(await store.getBillingCache('cus_1'), { payload: '{"a":1}', cachedAt: at1 });
    const at2 = await store.putBillingCache('cus_1', '{"a":2}');
    assert.deepEqual(await store.getBillingCache('cus_1'), { payload: '{"a":2}', cachedAt: at2 });
  });

  test(name('device codes: create, find, patch, and a transition happens once'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const record = {
      deviceCodeHash: 'dch', userCode: 'ABCD-EFGH', clientId: 'cli', scope: 'api:read', status: 'pending' as const,
      keyId: null, sealedKey: null, interval: 5, expiresAt: '2099-01-01T00:00:00.000Z', lastPolledAt: null,
    };
    await store.createDeviceCode(record);
    assert.deepEqual(await store.findDeviceCodeByHash('dch'), record);
    assert.deepEqual(await store.findDeviceCodeByUserCode('ABCD-EFGH'), record);
    assert.equal(await store.findDeviceCodeByUserCode('ZZZZ-ZZZZ'), null);
    await store.updateDeviceCode('dch', { lastPolledAt: '2025-01-01T00:00:00.000Z', interval: 10 });
    const patched = await store.findDeviceCodeByHash('dch');
    assert.equal(patched?.interval, 10);
    assert.equal(patched?.lastPolledAt, '2025-01-01T00:00:00.000Z');
    assert.equal(await store.transitionDeviceCode('dch', 'pending', 'approved', { keyId: 7, sealedKey: 's' }), true);
    assert.equal(await store.transitionDeviceCode('dch', 'pending', 'denied'), false);
    const both = await Promise.all([
      store.transitionDeviceCode('dch', 'approved', 'consumed', { sealedKey: null }),
      other.transitionDeviceCode('dch', 'approved', 'consumed', { sealedKey: null }),
    ]);
    assert.deepEqual(both.sort(), [false, true]);
    const done = await store.findDeviceCodeByHash('dch');
    assert.equal(done?.status, 'consumed');
    assert.equal(done?.keyId, 7);
    assert.equal(done?.sealedKey, null);
  });

  test(name('advisors: create, filter, verify; referrals convert once'), opts, async (t) => {
    const { store } = await factory.open(t);
    const base = { ownerKeyHash: null, stripeAccountId: null, disabledReason: null, verifiedAt: null, fields: { phone: '03' } };
    const a = await store.createAdvisor({ ...base, firmName: 'A', firmType: 'tax', specialties: ['subsidy', 'tax_credit'], prefecture: '東京都' });
    await store.createAdvisor({ ...base, firmName: 'B', firmType: 'legal', specialties: ['subsidy%'], prefecture: '大阪府' });
    assert.deepEqual((await store.getAdvisor(a.id))?.fields, { phone: '03' });
    assert.equal(await store.getAdvisor(9999), null);
    const all = await store.listAdvisors({ verifiedOnly: false, limit: 10, offset: 0 });
    assert.equal(all.total, 2);
    assert.deepEqual((await store.listAdvisors({ specialty: 'subsidy', verifiedOnly: false, limit: 10, offset: 0 })).rows.map((r) => r.firmName), ['A']);
    assert.deepEqual((await store.listAdvisors({ specialty: 'tax', verifiedOnly: false, limit: 10, offset: 0 })).total, 0, 'whole elements only');
    assert.deepEqual((await store.listAdvisors({ prefecture: '大阪府', verifiedOnly: false, limit: 10, offset: 0 })).rows.map((r) => r.firmName), ['B']);
    assert.equal((await store.listAdvisors({ verifiedOnly: true, limit: 10, offset: 0 })).total, 0);
    assert.equal(await store.verifyAdvisor(a.id, 'owner-hash'), true);
    assert.equal(await store.verifyAdvisor(9999, null), false);
    const verified = await store.listAdvisors({ verifiedOnly: true, limit: 10, offset: 0 });
    assert.deepEqual(verified.rows.map((r) => [r.firmName, r.ownerKeyHash]), [['A', 'owner-hash']]);
    assert.equal((await store.listAdvisors({ verifiedOnly: false, limit: 1, offset: 1 })).rows[0].firmName, 'B');

    const ref = await store.createReferral({
      advisorId: a.id, tokenHash: 'th', tokenPrefix: 'rf_1', sourceProgramId: 'P1', clickedAt: null, convertedAt: null,
      conversionValueYen: null, commissionYen: null, commissionPaidAt: null,
    });
    assert.equal((await store.findReferralByTokenHash('th'))?.id, ref.id);
    const converted = await store.convertReferral('th', 100000, 5000);
    assert.equal(converted?.commissionYen, 5000);
    assert.ok(converted?.convertedAt);
    assert.equal(await store.convertReferral('th', 1, 1), null, 'a referral converts once');
    assert.equal(await store.convertReferral('none', 1, 1), null);
    assert.deepEqual((await store.listReferrals(a.id)).map((r) => r.id), [ref.id]);
  });

  test(name('admin views: errors by route, funnel by day and tier, key cohorts'), opts, async (t) => {
    const { store } = await factory.open(t);
    await store.recordError('/v1/programs/:unified_id', 404);
    await store.recordError('/v1/programs/:unified_id', 404);
    await store.recordError('/v1/ping', 401);
    const errors = await store.adminErrors(10);
    assert.deepEqual(errors.map((e) => [e.route, e.status, e.count]), [['/v1/programs/:unified_id', 404, 2], ['/v1/ping', 401, 1]]);
    assert.equal((await store.adminErrors(1)).length, 1);

    const key = await paidKey(store);
    const now = new Date();
    await store.recordUsage(usage({ keyId: key.id, createdAt: now.toISOString(), billingMonth: '2099-01' }), null);
    const { jstDate } = await import('../../src/time.ts');
    await store.takeCounter('anon', 'addr', jstDate(now), 10);
    await store.takeCounter('anon', 'addr2', jstDate(now), 10);
    const funnel = await store.adminFunnel(7);
    assert.deepEqual(funnel, [
      { date: jstDate(now), tier: 'anonymous', requests: 2 },
      { date: jstDate(now), tier: 'paid', requests: 1 },
    ]);
    const cohorts = await store.adminCohorts();
    assert.deepEqual(cohorts, [{ month: key.createdAt.slice(0, 7), keys: 1, active: 1 }]);
  });
}
