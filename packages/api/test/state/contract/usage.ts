// Usage and spend: cap-guarded spend, idempotent event ids, the outbox rows
// written with each event, and several events in one transaction (recordMany).
import assert from 'node:assert/strict';
import type { StateStore } from '../../../src/state/store.ts';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey, usage } from './fixtures.ts';

/** After 3-yen events of one key raced against a 30-yen cap: exactly ten stand, with their spend and outbox rows. */
async function assertTenWithinCap(store: StateStore, keyId: number, results: boolean[]): Promise<void> {
  assert.equal(results.filter(Boolean).length, 10);
  assert.equal(await store.usage.monthlySpend(keyId, '2025-04'), 30);
  assert.equal((await store.usage.summary(keyId, '2025-04')).requests, 10, 'refused events leave nothing behind');
  assert.equal((await store.meterOutbox.pending(100)).length, 10);
}

export function usageContract(factory: StoreFactory): void {
  contractTest(factory, 'usage: spend within the cap, idempotent event ids, outbox for billable customer events', async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const first = usage({ keyId: key.id });
    assert.equal(await store.usage.record(first, 7), true);
    assert.equal(await store.usage.record(first, 7), true, 'a replayed event id is accepted');
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 3, 'and not charged twice');
    assert.equal(await store.usage.record(usage({ keyId: key.id }), 7), true);
    assert.equal(await store.usage.record(usage({ keyId: key.id }), 7), false, '9 > 7: refused');
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 6);
    assert.equal(await store.usage.monthlySpend(key.id, '2025-05'), 0);
    // Not billable: recorded, not charged, not queued.
    assert.equal(await store.usage.record(usage({ keyId: key.id, route: '/v1/ping', billable: false, amountYen: 0 }), 7), true);
    // A new month starts from zero.
    assert.equal(await store.usage.record(usage({ keyId: key.id, billingMonth: '2025-05', createdAt: '2025-05-01T00:00:00.000Z' }), 7), true);
    // No cap: unguarded.
    assert.equal(await store.usage.record(usage({ keyId: key.id }), null), true);

    const summary = await store.usage.summary(key.id, '2025-04');
    assert.equal(summary.requests, 4);
    assert.equal(summary.billableRequests, 3);
    assert.equal(summary.spendYen, 9);
    assert.deepEqual(summary.perDay, [{ date: '2025-04-10', requests: 4, billable: 3 }]);
    assert.deepEqual(summary.topEndpoints, [
      { route: '/v1/programs/search', requests: 3 },
      { route: '/v1/ping', requests: 1 },
    ]);

    const pending = await store.meterOutbox.pending(100);
    assert.equal(pending.length, 4, 'three April events and one May event');
    assert.ok(pending.every((p) => p.customerId === 'cus_1' && p.value === 1 && p.attempts === 0));
    assert.equal(pending.find((p) => p.eventId === first.eventId)?.timestamp, Date.parse(first.createdAt) / 1000);
  });

  contractTest(factory, 'usage: per-day series in Japan time; events without a customer are not queued', async (t) => {
    const { store } = await factory.open(t);
    const key = await store.keys.create({ keyHash: 'hx', prefix: 'am_x', tier: 'paid' });
    // 2025-04-10T15:30Z is 2025-04-11 00:30 in Japan.
    await store.usage.record(usage({ keyId: key.id, customerId: null, createdAt: '2025-04-10T15:30:00.000Z' }), null);
    await store.usage.record(usage({ keyId: key.id, customerId: null, createdAt: '2025-04-10T14:30:00.000Z' }), null);
    const summary = await store.usage.summary(key.id, '2025-04');
    assert.deepEqual(
      summary.perDay.map((d) => d.date),
      ['2025-04-10', '2025-04-11'],
    );
    assert.deepEqual(await store.meterOutbox.pending(10), []);
  });

  contractTest(factory, 'usage: concurrent billable events on two handles never exceed the cap', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).usage.record(usage({ keyId: key.id }), 30)));
    await assertTenWithinCap(store, key.id, results);
  });

  contractTest(factory, 'usage: recordMany writes a batch in one transaction, each event within its own cap', async (t) => {
    const { store } = await factory.open(t);
    assert.deepEqual(await store.usage.recordMany([]), []);
    const one = await paidKey(store, 1);
    const two = await paidKey(store, 2);
    const first = usage({ keyId: one.id });
    const entries = [
      { event: first, capYen: 7 },
      { event: usage({ keyId: one.id }), capYen: 7 },
      { event: usage({ keyId: one.id }), capYen: 7 }, // 9 > 7: refused
      { event: usage({ keyId: two.id, customerId: 'cus_2' }), capYen: null },
      { event: first, capYen: 7 }, // a replay inside the batch: accepted, not charged twice
      { event: usage({ keyId: one.id, route: '/v1/ping', billable: false, amountYen: 0 }), capYen: 7 },
    ];
    assert.deepEqual(await store.usage.recordMany(entries), [true, true, false, true, true, true]);
    assert.equal(await store.usage.monthlySpend(one.id, '2025-04'), 6, 'spend adds up across the events of one batch');
    assert.equal(await store.usage.monthlySpend(two.id, '2025-04'), 3);
    const summary = await store.usage.summary(one.id, '2025-04');
    assert.equal(summary.requests, 3, 'the refused event leaves no usage row');
    assert.equal(summary.billableRequests, 2);
    const queued = (await store.meterOutbox.pending(100)).map((p) => p.eventId).sort();
    assert.deepEqual(queued, [entries[0], entries[1], entries[3]].map((e) => e.event.eventId).sort(), 'and no outbox row');
    assert.deepEqual(await store.usage.recordMany([{ event: first, capYen: 7 }]), [true], 'a replay in a later batch changes nothing');
    assert.equal(await store.usage.monthlySpend(one.id, '2025-04'), 6);
  });

  contractTest(factory, 'usage: a batch that fails part-way writes nothing', async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const broken = { ...usage({ keyId: key.id }), method: null as unknown as string }; // violates NOT NULL
    await assert.rejects(
      store.usage.recordMany([
        { event: usage({ keyId: key.id }), capYen: null },
        { event: broken, capYen: null },
      ]),
    );
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 0);
    assert.equal((await store.usage.summary(key.id, '2025-04')).requests, 0);
    assert.deepEqual(await store.meterOutbox.pending(10), []);
  });

  contractTest(factory, 'usage: concurrent batches on two handles never exceed the cap', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? store : other).usage.recordMany(Array.from({ length: 5 }, () => ({ event: usage({ keyId: key.id }), capYen: 30 }))),
      ),
    );
    await assertTenWithinCap(store, key.id, batches.flat());
  });
}
