// Meter outbox: sent events leave the queue; a transient failure leaves an
// event pending without counting an attempt; the provider's permanent
// refusal parks it (counted in stats, listed, and put back by an unpark).
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey, usage } from './fixtures.ts';

export function meterOutboxContract(factory: StoreFactory): void {
  contractTest(factory, 'meter outbox: sent events leave the queue, outages count no attempt, refusals park', async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const events = [usage({ keyId: key.id }), usage({ keyId: key.id }), usage({ keyId: key.id })];
    for (const e of events) await store.usage.record(e, null);
    assert.equal((await store.meterOutbox.pending(2)).length, 2, 'limit respected');
    assert.deepEqual({ ...(await store.meterOutbox.stats()), oldestPendingAt: null }, { pending: 3, parked: 0, oldestPendingAt: null });
    await store.meterOutbox.markAttempted(events.map((e) => e.eventId));
    await store.meterOutbox.markSent([events[0].eventId]);
    await store.meterOutbox.markDeferred([events[1].eventId], 'network down');
    await store.meterOutbox.markDeferred([events[1].eventId], 'still down');
    await store.meterOutbox.markSent([]);
    const pending = await store.meterOutbox.pending(10);
    assert.deepEqual(pending.map((p) => p.eventId).sort(), [events[1].eventId, events[2].eventId].sort());
    assert.equal(pending.find((p) => p.eventId === events[1].eventId)?.attempts, 0, 'an outage charges no attempt');

    await store.meterOutbox.park([events[1].eventId], '400 No customer');
    assert.deepEqual(
      (await store.meterOutbox.pending(10)).map((p) => p.eventId),
      [events[2].eventId],
      'a parked event is no longer sent',
    );
    const stats = await store.meterOutbox.stats();
    assert.equal(stats.pending, 1);
    assert.equal(stats.parked, 1);
    assert.ok(stats.oldestPendingAt);
    const [parked] = await store.meterOutbox.parked();
    assert.equal(parked.eventId, events[1].eventId);
    assert.equal(parked.lastError, '400 No customer');
    assert.equal(parked.attempts, 1);
    assert.ok(parked.firstAttemptAt && parked.parkedAt);

    // The first attempt's time is kept across later attempts (it starts the provider's de-duplication window).
    await new Promise((r) => setTimeout(r, 5));
    await store.meterOutbox.markAttempted([events[1].eventId]);
    assert.equal((await store.meterOutbox.parked())[0].firstAttemptAt, parked.firstAttemptAt);

    assert.equal(await store.meterOutbox.unpark([events[1].eventId, events[0].eventId]), 1, 'only parked, unsent events come back');
    assert.equal((await store.meterOutbox.stats()).parked, 0);
    assert.equal((await store.meterOutbox.pending(10)).length, 2);
  });
}
