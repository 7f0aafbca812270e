// Meter outbox: sent events leave the queue; refused ones count attempts and
// are parked after MAX_METER_ATTEMPTS.
import assert from 'node:assert/strict';
import { MAX_METER_ATTEMPTS } from '../../../src/state/repositories/meter-outbox.ts';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey, usage } from './fixtures.ts';

export function meterOutboxContract(factory: StoreFactory): void {
  contractTest(factory, 'meter outbox: sent events leave the queue, failures count attempts', async (t) => {
    const { store } = await factory.open(t);
    const key = await paidKey(store);
    const events = [usage({ keyId: key.id }), usage({ keyId: key.id }), usage({ keyId: key.id })];
    for (const e of events) await store.usage.record(e, null);
    assert.equal((await store.meterOutbox.pending(2)).length, 2, 'limit respected');
    await store.meterOutbox.markSent([events[0].eventId]);
    await store.meterOutbox.markFailed([events[1].eventId], 'boom');
    await store.meterOutbox.markFailed([events[1].eventId], 'boom again');
    await store.meterOutbox.markSent([]);
    const pending = await store.meterOutbox.pending(10);
    assert.deepEqual(pending.map((p) => p.eventId).sort(), [events[1].eventId, events[2].eventId].sort());
    assert.equal(pending.find((p) => p.eventId === events[1].eventId)?.attempts, 2);
    for (let i = 2; i < MAX_METER_ATTEMPTS; i++) await store.meterOutbox.markFailed([events[1].eventId], 'refused');
    assert.deepEqual((await store.meterOutbox.pending(10)).map((p) => p.eventId), [events[2].eventId], 'an event refused too often is parked');
  });
}
