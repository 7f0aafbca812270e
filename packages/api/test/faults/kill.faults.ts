// kill -9 under paid load, then a restart: every answered request is in
// usage exactly once (and only requests that reached the server are), and
// every meter event reaches the fake Stripe exactly once across the restart
// and an outage of the fake Stripe (connections refused, then 503s).
// PostgreSQL when TEST_DATABASE_URL is set, else SQLite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import type { StateStore } from '../../src/state/store.ts';
import { TEST_DATABASE_URL } from '../state/stores.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { catalogDir, postgresSchema, privateDataDir, request, startServer, type Ctx } from './servers.ts';

const LOOPS = 24;

async function stateFor(t: Ctx): Promise<{ store: StateStore; env: Record<string, string>; kind: string }> {
  if (TEST_DATABASE_URL) {
    const { url, store } = await postgresSchema(t, TEST_DATABASE_URL);
    return { store, env: { DATA_DIR: await catalogDir(), DATABASE_URL: url }, kind: 'postgres' };
  }
  const dataDir = await privateDataDir(t);
  const store = openSqliteStore(path.join(dataDir, 'state.sqlite'));
  await store.migrate();
  t.after(() => store.close());
  return { store, env: { DATA_DIR: dataDir }, kind: 'sqlite' };
}

test('kill -9 under paid load, restart, Stripe outage: usage and meter events exactly once', { timeout: 300_000 }, async (t) => {
  const { store, env: stateEnv, kind } = await stateFor(t);
  const fake = await startFakeStripe(t);
  const key = generateApiKey();
  const record = await store.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: 'cus_kill', subscriptionId: 'sub_kill' });
  const env = { ...stateEnv, ...fake.env({ STRIPE_METER_FLUSH_SECONDS: '0.2', STRIPE_MAX_NETWORK_RETRIES: '0' }) };

  // The fake Stripe is down (connections refused) while the first server takes load.
  await fake.pause();
  const first = await startServer(t, env);
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOOPS });
  t.after(() => agent.destroy());
  let answered = 0;
  let sent = 0;
  let stop = false;
  const load = Promise.all(
    Array.from({ length: LOOPS }, async (_, loop) => {
      for (let i = 0; !stop; i++) {
        sent++;
        try {
          const res = await request(agent, `${first.url}/v1/programs/search?limit=1&offset=${(loop * 7 + i) % 50}`, { headers: { 'x-api-key': key.key } });
          if (res.status === 200) answered++;
          else assert.fail(`unexpected ${res.status}: ${res.body.slice(0, 200)}`);
        } catch (err) {
          if (!stop) throw err;
        }
      }
    }),
  );
  await new Promise((r) => setTimeout(r, 1500));
  // Stripe comes back failing (503) for a while, then the server dies mid-load.
  fake.failNext(1_000_000, { pathPrefix: '/v1/billing/meter_events', status: 503 });
  await fake.resume();
  await new Promise((r) => setTimeout(r, 700));
  stop = true;
  await first.kill('SIGKILL');
  await load.catch(() => undefined);
  const inFlightAtKill = sent - answered;
  assert.ok(answered > 50, `${answered} answered before the kill`);

  const afterKill = await store.usage.summary(record.id, jstMonth());
  assert.ok(afterKill.billableRequests >= answered, `every answered request is in usage (${afterKill.billableRequests} >= ${answered})`);
  assert.ok(afterKill.billableRequests <= answered + inFlightAtKill, 'nothing beyond the requests that reached the server');
  assert.equal(afterKill.spendYen, afterKill.billableRequests * 3);

  // Stripe recovers; a new process drains the outbox the dead one left.
  (fake as unknown as { failures: unknown[] }).failures.length = 0;
  const second = await startServer(t, env);
  const deadline = Date.now() + 60_000;
  while ((await store.meterOutbox.stats()).pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const stats = await store.meterOutbox.stats();
  assert.deepEqual([stats.pending, stats.parked], [0, 0], 'nothing pending, nothing parked by the outage');

  const summary = await store.usage.summary(record.id, jstMonth());
  assert.equal(summary.billableRequests, afterKill.billableRequests, 'the restart added no usage');
  // A meter event reports one second's calls (docs/decisions/0435-meter-events-per-customer-second.md): its value is their count.
  const billed = fake.billedIdentifiers;
  assert.equal(fake.billedUnits('cus_kill'), summary.billableRequests, 'every billable usage event billed once');
  assert.equal(new Set(billed).size, billed.length);
  for (const event of fake.meterEvents.values()) assert.equal(event.payload.stripe_customer_id, 'cus_kill');
  // The second process answers as the first did.
  assert.equal((await request(agent, `${second.url}/v1/programs/search?limit=1`, { headers: { 'x-api-key': key.key } })).status, 200);
  t.diagnostic(
    `${kind}: ${answered} answered, ${inFlightAtKill} in flight at the kill, ${summary.billableRequests} in usage, billed once each in ${billed.length} meter events (${fake.meterEventAttempts} meter calls reached Stripe)`,
  );
});
