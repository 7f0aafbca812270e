// Meter events through an outage (issue 11, finding 14): an outage charges no
// attempt and parks nothing however long it lasts; the background flusher
// backs off exponentially and recovers by itself; only Stripe's permanent
// refusal parks an event; backlog and parked counts are exposed; the
// operator's replay sends parked events again within Stripe's de-duplication
// window, and every event is billed once. (A meter event reports one
// customer's calls of one second, docs/decisions/0435-meter-events-per-customer-second.md:
// `billedUnits` counts calls.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { MeterFlusher } from '../../src/billing/meter-flusher.ts';
import { REPLAY_WINDOW_MS, replayParked } from '../../src/billing/meter-replay.ts';
import { meterCommand } from '../../src/cli/meter.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { billingApp, queueUsage, waitForPending } from './helpers.ts';

async function paidCalls(app: FastifyInstance, customerId: string, n: number): Promise<void> {
  const { key, hash, prefix } = generateApiKey();
  await app.state.keys.create({ keyHash: hash, prefix, tier: 'paid', customerId, subscriptionId: `sub_${prefix}` });
  const before = (await app.state.meterOutbox.stats()).pending;
  for (let i = 0; i < n; i++) {
    const res = await app.inject({ url: `/v1/programs/search?limit=1&offset=${i}`, headers: { 'x-api-key': key } });
    assert.equal(res.statusCode, 200);
  }
  await waitForPending(app, before + n);
}

test('a long outage charges no attempt and parks nothing; the first flush after it sends every event once', async (t) => {
  const { app, fake } = await billingApp(t);
  await paidCalls(app, 'cus_outage', 5);
  fake.failNext(10_000, { pathPrefix: '/v1/billing/meter_events', status: 503 });
  for (let i = 0; i < 40; i++) await app.meterFlusher!.flush(); // twice the old parking threshold
  const during = await app.state.meterOutbox.pending(100);
  assert.equal(during.length, 5);
  assert.ok(
    during.every((e) => e.attempts === 0),
    'no attempt charged',
  );
  assert.deepEqual({ ...(await app.state.meterOutbox.stats()), oldestPendingAt: null }, { pending: 5, parked: 0, oldestPendingAt: null });
  (fake as unknown as { failures: unknown[] }).failures.length = 0;
  const after = await app.meterFlusher!.flush();
  assert.deepEqual(after, { sent: 5, duplicates: 0, failed: 0, parked: 0 });
  assert.equal(fake.billedUnits('cus_outage'), 5);
  assert.equal(fake.meterEventAttempts, fake.meterEvents.size);
});

test('the background flusher backs off exponentially during an outage and recovers by itself', async (t) => {
  const { app, fake } = await billingApp(t);
  // Two seconds of calls: two meter events per flush.
  await queueUsage(app, 'cus_backoff', [2, 1]);
  fake.failNext(10_000, { pathPrefix: '/v1/billing/meter_events', status: 500 });
  const flusher = new MeterFlusher({ store: app.state, stripe: app.billing.stripe!, eventName: 'api_requests', log: app.log });
  const sends = () => fake.requests.filter((r) => r.path === '/v1/billing/meter_events').length;
  flusher.start(0.02); // 20 ms between flushes when healthy
  await new Promise((r) => setTimeout(r, 1300));
  // Without backoff about 65 flushes would have run; with it 20+40+80+160+320+640 ms: at most 6 or 7.
  const flushes = sends() / 2;
  assert.ok(flushes <= 8 && flushes >= 3, `${flushes} flushes during the outage`);
  assert.ok(flusher.backoffLevel >= 3, `backoff level ${flusher.backoffLevel}`);
  (fake as unknown as { failures: unknown[] }).failures.length = 0;
  const deadline = Date.now() + 15_000;
  while (fake.billedUnits() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(fake.billedUnits(), 2, 'delivered once the provider is back, without a restart');
  while (flusher.backoffLevel !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(flusher.backoffLevel, 0);
  await flusher.stop();
});

test('only a permanent refusal parks; the replay sends parked events again within the window, billed once', async (t) => {
  const { app, fake } = await billingApp(t);
  // Three seconds of calls, the first two of them in meter events named here (before the flush would name them).
  const ids = await queueUsage(app, 'cus_refused', [3, 2, 1]);
  const rows = await app.state.meterOutbox.pending(3);
  const [first, second] = ['agg-refused-1', 'agg-refused-2'];
  const rowOf = (id: string) => rows.find((r) => r.eventId === id)!;
  await app.state.meterOutbox.groupSecond('cus_refused', rowOf(ids[0]).timestamp, first);
  await app.state.meterOutbox.groupSecond('cus_refused', rowOf(ids[1]).timestamp, second);
  fake.refusedIdentifiers.add(first);
  fake.refusedIdentifiers.add(second);
  const flushed = await app.meterFlusher!.flush();
  assert.deepEqual(flushed, { sent: 1, duplicates: 0, failed: 2, parked: 2 });
  assert.equal((await app.state.meterOutbox.stats()).parked, 2);

  // Stripe accepts them now (e.g. the customer was fixed); one of them was in fact recorded before.
  fake.refusedIdentifiers.clear();
  fake.meterEvents.set(second, {
    identifier: second,
    event_name: 'api_requests',
    payload: { stripe_customer_id: 'cus_refused', value: '1' },
    timestamp: rowOf(ids[1]).timestamp,
    created: 0,
  });

  // Outside the de-duplication window nothing is sent without the operator's word.
  const late = await replayParked(app.state, { now: new Date(Date.now() + REPLAY_WINDOW_MS + 60_000) });
  assert.deepEqual([late.replay.length, late.outsideWindow.length], [0, 2]);
  assert.equal((await app.state.meterOutbox.stats()).parked, 2);

  const dry = await replayParked(app.state, { dryRun: true });
  assert.equal(dry.replay.length, 2);
  assert.equal((await app.state.meterOutbox.stats()).parked, 2, 'a dry run changes nothing');

  // The documented command: npm run cli -- meter replay (it flushes once itself).
  const out: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  const errLog = console.error;
  console.error = () => undefined;
  try {
    assert.equal(await meterCommand.run(['replay'], app.config), 0);
    assert.equal(await meterCommand.run(['status'], app.config), 0);
  } finally {
    console.log = log;
    console.error = errLog;
  }
  assert.match(out.join('\n'), /"replay":2/);
  assert.match(out.at(-1)!, /"pending":0,"parked":0/);
  assert.equal(fake.meterEvents.size, 3);
  assert.equal(fake.billedUnits('cus_refused'), 3, 'each of the three calls is billed once');
});
