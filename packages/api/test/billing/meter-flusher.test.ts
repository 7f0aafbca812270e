// The meter flusher: outbox -> Stripe Billing Meter events, in batches, with
// stable identifiers so retries never bill twice, surviving restarts. The
// usage of one customer in one second is one meter event whose value is its
// calls (docs/decisions/0435-meter-events-per-customer-second.md); tests that
// count meter events queue usage in seconds of their choosing (queueUsage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, tempDir } from '../helper.ts';
import { MeterFlusher } from '../../src/billing/meter-flusher.ts';
import { generateApiKey, hashApiKey } from '../../src/access/keys.ts';
import { aggregateOf, billingApp, countRows, queueUsage, waitForQueued } from './helpers.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';

/** A paid key of `customerId`, created directly in the store. */
async function paidKey(app: FastifyInstance, customerId: string): Promise<string> {
  const { key, hash, prefix } = generateApiKey();
  await app.state.keys.create({ keyHash: hash, prefix, tier: 'paid', customerId, subscriptionId: `sub_${prefix}` });
  return key;
}

/**
 * `n` billable calls; waits until their usage is in the outbox (recorded
 * after the response), counted pending or sent since a background flusher may
 * already have sent some.
 */
async function searches(app: FastifyInstance, key: string, n: number): Promise<void> {
  const before = countRows(app, 'meter_outbox');
  for (let i = 0; i < n; i++) {
    const res = await app.inject({ method: 'GET', url: `/v1/programs/search?limit=1&offset=${i}`, headers: { 'x-api-key': key } });
    assert.equal(res.statusCode, 200, res.body);
  }
  const tier = (await app.state.keys.findByHash(hashApiKey(key)))?.tier;
  if (tier === 'paid') await waitForQueued(app, before + n);
}

test('billable usage is sent as meter events: per second its calls summed, under the identifier of their aggregate', async (t) => {
  const { app, fake } = await billingApp(t);
  const key = await paidKey(app, 'cus_meter_1');
  await searches(app, key, 3);
  await app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-api-key': key } }); // counted, never billed
  const pending = await app.state.meterOutbox.pending(100);
  assert.equal(pending.length, 3);

  const result = await app.meterFlusher!.flush();
  assert.deepEqual(result, { sent: 3, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.billedUnits('cus_meter_1'), 3, 'three calls billed');
  assert.equal(fake.meterEvents.size, new Set(pending.map((p) => p.timestamp)).size, 'one meter event per second of calls');
  const aggregates = aggregateOf(app);
  assert.deepEqual(fake.billedIdentifiers.sort(), [...new Set(pending.map((p) => aggregates.get(p.eventId)))].sort());
  for (const ev of fake.meterEvents.values()) {
    const rows = pending.filter((p) => aggregates.get(p.eventId) === ev.identifier);
    assert.equal(ev.event_name, 'api_requests');
    assert.deepEqual(ev.payload, { stripe_customer_id: 'cus_meter_1', value: String(rows.length) });
    assert.ok(rows.every((r) => r.timestamp === ev.timestamp));
  }
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 0, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.meterEventAttempts, fake.meterEvents.size);
});

test('one meter event per customer and second', async (t) => {
  const { app, fake } = await billingApp(t);
  const a = await queueUsage(app, 'cus_a', [30, 30, 30, 29]);
  const b = await queueUsage(app, 'cus_b', [30, 30]);
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 6, duplicates: 0, failed: 0, parked: 0 });
  const now = Math.floor(Date.now() / 1000);
  const events = [...fake.meterEvents.values()].map((ev) => ({
    customer: (ev.payload as { stripe_customer_id: string }).stripe_customer_id,
    value: (ev.payload as { value: string }).value,
    ago: now - ev.timestamp,
  }));
  // Date.now() may pass a second boundary between queueing and here: compare the seconds relative to each other.
  const first = Math.max(...events.map((e) => e.ago));
  assert.deepEqual(events.map((e) => `${e.customer} ${first - e.ago} ${e.value}`).sort(), ['cus_a 0 3', 'cus_a 1 1', 'cus_b 0 2']);
  assert.equal(fake.meterEventAttempts, 3);
  const aggregates = aggregateOf(app);
  assert.ok(fake.meterEvents.has(aggregates.get(a[3])!), "a lone call's meter event is its aggregate");
  assert.equal(new Set(a.slice(0, 3).map((id) => aggregates.get(id))).size, 1, "one second's calls share an aggregate");
  assert.notEqual(aggregates.get(a[0]), aggregates.get(b[0]), 'customers apart');
});

test('a row sent alone before aggregates existed is resent alone, under its event id', async (t) => {
  const { app, fake } = await billingApp(t);
  const [old, other] = await queueUsage(app, 'cus_upgrade', [50, 50]);
  // What a flusher before aggregates left behind: a send whose answer was lost (Stripe has it under the event id).
  await app.state.meterOutbox.markAttempted([old]);
  fake.meterEvents.set(old, {
    identifier: old,
    event_name: 'api_requests',
    payload: { stripe_customer_id: 'cus_upgrade', value: '1' },
    timestamp: 0,
    created: 0,
  });
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 2, duplicates: 1, failed: 0, parked: 0 });
  assert.equal(fake.billedUnits('cus_upgrade'), 2, 'billed once each');
  assert.equal(aggregateOf(app).get(old), old);
  assert.notEqual(aggregateOf(app).get(other), old);
});

test('an aggregate larger than a batch is sent whole, once', async (t) => {
  const { app, fake } = await billingApp(t);
  await queueUsage(app, 'cus_big', [20, 20, 20, 20, 20]);
  const flusher = new MeterFlusher({ store: app.state, stripe: app.billing.stripe!, eventName: 'api_requests', log: app.log, batchSize: 2 });
  assert.deepEqual(await flusher.flush(), { sent: 5, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.meterEventAttempts, 1);
  assert.equal(fake.billedUnits('cus_big'), 5);
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
});

test('a row grouped once never joins another aggregate: usage arriving later in the same second is a meter event of its own', async (t) => {
  const { app, fake } = await billingApp(t);
  await queueUsage(app, 'cus_late', [40, 40]);
  fake.failNext(1, { pathPrefix: '/v1/billing/meter_events', afterProcessing: true });
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 0, duplicates: 0, failed: 2, parked: 0 });
  // The first send reached Stripe (its answer was lost); a third call of that second is queued meanwhile.
  const [late] = await queueUsage(app, 'cus_late', [40]);
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 3, duplicates: 2, failed: 0, parked: 0 });
  assert.equal(fake.billedUnits('cus_late'), 3, 'each call billed once');
  assert.equal(fake.meterEvents.size, 2, 'the late call is a meter event of its own');
  assert.equal(fake.meterEvents.get(aggregateOf(app).get(late)!)?.payload.value, '1');
});

test('a free key and anonymous calls queue nothing', async (t) => {
  const { app } = await billingApp(t);
  const { key, hash, prefix } = generateApiKey();
  const record = await app.state.keys.create({ keyHash: hash, prefix, tier: 'free' });
  await searches(app, key, 2);
  await app.inject({ method: 'GET', url: '/v1/programs/search' });
  const { jstMonth } = await import('../../src/lib/time.ts');
  while ((await app.state.usage.summary(record.id, jstMonth())).requests < 2) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
});

test('the outbox drains in batches, at most maxBatches per flush', async (t) => {
  const { app, fake } = await billingApp(t);
  await queueUsage(app, 'cus_batches', [5, 4, 3, 2, 1]);
  const flusher = new MeterFlusher({ store: app.state, stripe: app.billing.stripe!, eventName: 'api_requests', log: app.log, batchSize: 2, maxBatches: 2 });
  assert.deepEqual(await flusher.flush(), { sent: 4, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.meterEvents.size, 4);
  assert.equal((await app.state.meterOutbox.pending(100)).length, 1);
  assert.deepEqual(await flusher.flush(), { sent: 1, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.meterEvents.size, 5);
  assert.equal(fake.meterEventAttempts, 5);
});

test('a row Stripe keeps refusing does not stall the rows behind it', async (t) => {
  const { app, fake } = await billingApp(t);
  const [poison] = await queueUsage(app, 'cus_poison', [9, 8, 7, 6, 5]);
  // Its meter event's identifier, named before the flush would.
  const row = (await app.state.meterOutbox.pending(10)).find((r) => r.eventId === poison)!;
  await app.state.meterOutbox.groupSecond('cus_poison', row.timestamp, 'agg-poison');
  fake.refusedIdentifiers.add('agg-poison');
  const flusher = new MeterFlusher({ store: app.state, stripe: app.billing.stripe!, eventName: 'api_requests', log: app.log, batchSize: 2 });
  const result = await flusher.flush();
  assert.equal(result.sent, 4);
  assert.equal(fake.meterEvents.size, 4);
  // Stripe's permanent refusal parks the row at once: out of the queue, counted, listed with its reason.
  assert.equal(result.parked, 1);
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
  assert.deepEqual(
    (await app.state.meterOutbox.parked()).map((p) => p.eventId),
    [poison],
  );
  assert.equal((await app.state.meterOutbox.stats()).parked, 1);

  // During an outage nothing goes through: one batch, then the flush waits for the next tick.
  await queueUsage(app, 'cus_poison', [4, 3, 2, 1]);
  fake.failNext(100, { pathPrefix: '/v1/billing/meter_events' });
  const before = fake.requests.length;
  const outage = await flusher.flush();
  assert.equal(outage.sent, 0);
  assert.equal(fake.requests.length - before, 2, 'a single batch was tried');
});

test('failed sends stay pending and are retried later without double billing', async (t) => {
  const { app, fake } = await billingApp(t);
  await queueUsage(app, 'cus_retry', [3, 2, 1]);
  fake.failNext(2, { pathPrefix: '/v1/billing/meter_events' });

  const first = await app.meterFlusher!.flush();
  assert.equal(first.failed, 2);
  assert.equal(first.sent, 1);
  assert.equal((await app.state.meterOutbox.pending(100)).length, 2);
  assert.equal((await app.state.meterOutbox.pending(100))[0].attempts, 0, 'a 500 is an outage: no attempt is charged');

  const second = await app.meterFlusher!.flush();
  assert.deepEqual(second, { sent: 2, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.meterEvents.size, 3);
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
});

test('a lost answer (Stripe recorded it, we saw 500) is resent with the same identifier and billed once', async (t) => {
  const { app, fake } = await billingApp(t);
  await queueUsage(app, 'cus_lost', [2, 1]);
  fake.failNext(1, { pathPrefix: '/v1/billing/meter_events', afterProcessing: true });

  const first = await app.meterFlusher!.flush();
  assert.equal(first.failed, 1);
  assert.equal(fake.meterEvents.size, 2, 'Stripe has both events although one answer was lost');

  const second = await app.meterFlusher!.flush();
  assert.deepEqual(second, { sent: 1, duplicates: 1, failed: 0, parked: 0 });
  assert.equal(fake.meterEvents.size, 2, 'still two billed events');
  assert.equal(fake.meterEventAttempts, 3);
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
});

test('SDK retries of a failed send reuse one idempotency key and bill once', async (t) => {
  const { app, fake } = await billingApp(t, { STRIPE_MAX_NETWORK_RETRIES: '2' });
  const key = await paidKey(app, 'cus_sdk_retry');
  await searches(app, key, 1);
  fake.failNext(2, { pathPrefix: '/v1/billing/meter_events' });
  const result = await app.meterFlusher!.flush();
  assert.deepEqual(result, { sent: 1, duplicates: 0, failed: 0, parked: 0 });
  const posts = fake.requests.filter((r) => r.path === '/v1/billing/meter_events');
  assert.equal(posts.length, 3);
  assert.ok(posts[0].idempotencyKey);
  assert.ok(posts.every((p) => p.idempotencyKey === posts[0].idempotencyKey));
  assert.equal(fake.meterEvents.size, 1);
});

test('a 500 Stripe recorded is replayed for the same idempotency key; the next flush settles it as a duplicate', async (t) => {
  const { app, fake } = await billingApp(t, { STRIPE_MAX_NETWORK_RETRIES: '1' });
  const key = await paidKey(app, 'cus_sdk_replay');
  await searches(app, key, 1);
  fake.failNext(1, { pathPrefix: '/v1/billing/meter_events', afterProcessing: true });
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 0, duplicates: 0, failed: 1, parked: 0 });
  assert.deepEqual(await app.meterFlusher!.flush(), { sent: 1, duplicates: 1, failed: 0, parked: 0 });
  assert.equal(fake.meterEvents.size, 1);
});

test('pending usage survives a restart and is flushed by the next process', async (t) => {
  const fake = await startFakeStripe(t);
  const dataDir = tempDir(t);
  // First process: no Stripe configured (no flusher), usage recorded, closed before any flush.
  const first = await build(t, { DATA_DIR: dataDir });
  assert.equal(first.meterFlusher, null);
  const key = await paidKey(first, 'cus_restart');
  await searches(first, key, 4);
  const pending = (await first.state.meterOutbox.pending(100)).map((p) => p.eventId).sort();
  assert.equal(pending.length, 4);
  await first.close();
  assert.equal(fake.meterEvents.size, 0);

  const second = await build(t, fake.env({ DATA_DIR: dataDir, STRIPE_METER_FLUSH_SECONDS: '0' }));
  assert.deepEqual(await second.meterFlusher!.flush(), { sent: 4, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.billedUnits('cus_restart'), 4);
  const aggregates = aggregateOf(second);
  assert.deepEqual(fake.billedIdentifiers.sort(), [...new Set(pending.map((id) => aggregates.get(id)))].sort());
});

test('closing the app flushes what is pending', async (t) => {
  const { app, fake } = await billingApp(t);
  const key = await paidKey(app, 'cus_close');
  await searches(app, key, 2);
  assert.equal(fake.meterEvents.size, 0);
  await app.close();
  assert.equal(fake.billedUnits('cus_close'), 2);
});

test('the background timer flushes without being asked', async (t) => {
  const { app, fake } = await billingApp(t, { STRIPE_METER_FLUSH_SECONDS: '0.05' });
  const key = await paidKey(app, 'cus_timer');
  await searches(app, key, 2);
  const deadline = Date.now() + 10_000;
  while (fake.billedUnits() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(fake.billedUnits(), 2);
  for (const ev of fake.meterEvents.values()) assert.equal(ev.payload.stripe_customer_id, 'cus_timer');
});

test('background flushes run only in the holder of the meter-flusher lease, which stop() gives up', async (t) => {
  const { app, fake } = await billingApp(t);
  const key = await paidKey(app, 'cus_lease');
  await searches(app, key, 3);
  const now = Date.now();
  // Another process (a second worker or replica) holds the lease.
  assert.ok(await app.state.leases.acquire('meter-flusher', 'another-process', new Date(now).toISOString(), new Date(now + 60_000).toISOString()));
  const flusher = new MeterFlusher({ store: app.state, stripe: app.billing.stripe!, eventName: 'api_requests', log: app.log });
  t.after(() => flusher.stop());
  flusher.start(0.02);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(fake.meterEventAttempts, 0, 'not the holder: no background flush');

  await app.state.leases.release('meter-flusher', 'another-process');
  const deadline = Date.now() + 10_000;
  while (fake.billedUnits() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(fake.billedUnits(), 3, 'the lease is free: this flusher takes it and sends');
  assert.equal(await app.state.leases.holder('meter-flusher', new Date().toISOString()), flusher.holder);

  // The last flush on stop sends the rest and gives the lease up for the next process.
  await searches(app, key, 2);
  await flusher.stop();
  assert.equal(fake.billedUnits(), 5);
  assert.equal(fake.meterEventAttempts, fake.meterEvents.size, 'each meter event sent once');
  assert.equal(await app.state.leases.holder('meter-flusher', new Date().toISOString()), null);
});
