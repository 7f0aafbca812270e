// Webhooks against two server processes on one PostgreSQL: the same event
// delivered to both at once, replays, out of order (deleted before created),
// bad and future signatures. Key states follow the contract's table (none ->
// active on created / invoice.paid / from-checkout; active -> revoked on
// deleted; revoked stays revoked), and nothing else changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { TEST_DATABASE_URL } from '../state/stores.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { catalogDir, postgresSchema, request, startServer } from './servers.ts';

test('webhooks duplicated across two processes, replayed, out of order, badly signed', {
  skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set',
  timeout: 300_000,
}, async (t) => {
  const { url, store } = await postgresSchema(t, TEST_DATABASE_URL!);
  const fake = await startFakeStripe(t);
  const env = { DATA_DIR: await catalogDir(), DATABASE_URL: url, ...fake.env({ STRIPE_METER_FLUSH_SECONDS: '0', STRIPE_MAX_NETWORK_RETRIES: '0' }) };
  const servers = await Promise.all([startServer(t, env), startServer(t, env)]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  t.after(() => agent.destroy());
  const post = (i: number, payload: string, header: string) =>
    request(agent, `${servers[i % 2].url}/v1/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'payment-signature': header },
      body: payload,
    });
  const keysOf = async (sub: string) => (await store.keys.list()).filter((k) => k.subscriptionId === sub);
  const customer = fake.createCustomer();

  // 1. The same created event, ten times at once over both processes: one key.
  const a = fake.createSubscription(customer.id, 'price_test_metered');
  const created = fake.signedEvent('customer.subscription.created', a);
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i, created.payload, created.header)));
  assert.deepEqual(
    answers.map((r) => r.status),
    Array(10).fill(200),
  );
  assert.ok(answers.every((r) => JSON.parse(r.body).status === 'received'));
  assert.deepEqual(
    (await keysOf(a.id)).map((k) => k.status),
    ['active'],
  );
  // invoice.paid (safety net) and another created event for the same subscription, at once: still one key.
  const paid = fake.signedEvent('invoice.paid', {
    id: 'in_a',
    object: 'invoice',
    customer: customer.id,
    parent: { subscription_details: { subscription: a.id } },
  });
  const createdAgain = fake.signedEvent('customer.subscription.created', a);
  await Promise.all([post(0, paid.payload, paid.header), post(1, createdAgain.payload, createdAgain.header), post(1, paid.payload, paid.header)]);
  assert.equal((await keysOf(a.id)).length, 1);

  // 2. Deleted, delivered to both at once, then replayed: revoked once, stays revoked.
  const deleted = fake.signedEvent('customer.subscription.deleted', { ...a, status: 'canceled' });
  await Promise.all([post(0, deleted.payload, deleted.header), post(1, deleted.payload, deleted.header)]);
  await post(0, deleted.payload, deleted.header);
  assert.deepEqual(
    (await keysOf(a.id)).map((k) => k.status),
    ['revoked'],
  );
  // A late created replay or a new invoice.paid does not bring it back.
  await post(1, created.payload, created.header);
  const paidLate = fake.signedEvent('invoice.paid', {
    id: 'in_a2',
    object: 'invoice',
    customer: customer.id,
    parent: { subscription_details: { subscription: a.id } },
  });
  await post(0, paidLate.payload, paidLate.header);
  assert.deepEqual(
    (await keysOf(a.id)).map((k) => k.status),
    ['revoked'],
  );

  // 3. Out of order: deleted before created, each on another process: no key ever.
  const b = fake.createSubscription(customer.id, 'price_test_metered');
  const bDeleted = fake.signedEvent('customer.subscription.deleted', { ...b, status: 'canceled' });
  const bCreated = fake.signedEvent('customer.subscription.created', b);
  assert.equal((await post(0, bDeleted.payload, bDeleted.header)).status, 200);
  assert.equal((await post(1, bCreated.payload, bCreated.header)).status, 200);
  assert.deepEqual(await keysOf(b.id), []);

  // 4. Bad and future signatures: 400 {detail}, nothing claimed, nothing changed.
  const c = fake.createSubscription(customer.id, 'price_test_metered');
  const cCreated = fake.signedEvent('customer.subscription.created', c);
  const before = JSON.stringify(await store.keys.list());
  const bad = [
    fake.sign(cCreated.payload, { secret: 'whsec_wrong' }),
    fake.sign(cCreated.payload, { timestamp: Math.floor(Date.now() / 1000) + 3600 }),
    fake.sign(cCreated.payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    't=abc,v1=zz',
    '',
  ];
  for (const [i, header] of bad.entries()) {
    const res = await post(i, cCreated.payload, header);
    assert.equal(res.status, 400, header);
    assert.equal(typeof JSON.parse(res.body).detail, 'string');
  }
  assert.equal(JSON.stringify(await store.keys.list()), before, 'no key changed');
  // The same event correctly signed is then processed once.
  await Promise.all([post(0, cCreated.payload, cCreated.header), post(1, cCreated.payload, cCreated.header)]);
  assert.deepEqual(
    (await keysOf(c.id)).map((k) => k.status),
    ['active'],
  );
  assert.equal((await store.keys.list()).length, 2, 'one key for a, one for c, none for b');
});
