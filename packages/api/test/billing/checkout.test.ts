// Checkout, portal and key issuance from a checkout, through HTTP, with the
// real Stripe SDK against the local fake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { hashApiKey } from '../../src/access/keys.ts';
import { billingApp, deliver, fromCheckout, paidCheckout } from './helpers.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { FACTORIES } from '../state/stores.ts';
import { buildWithStore } from '../state/app.ts';

const CHECKOUT = { success_url: 'https://example.com/ok', cancel_url: 'https://example.com/cancel' };

test('checkout answers 503 with a detail when Stripe is not configured', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: CHECKOUT });
  assert.equal(res.statusCode, 503);
  assert.match(body(res).detail, /not configured/);
  const portal = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: 'cus_x', return_url: 'https://example.com' } });
  assert.equal(portal.statusCode, 503);
  const key = await app.inject({ method: 'POST', url: '/v1/billing/keys/from-checkout', payload: { session_id: 'cs_test_x' } });
  assert.equal(key.statusCode, 503);
  assert.equal(app.meterFlusher, null);
});

test('checkout creates a subscription-mode session on the metered price, without a quantity', async (t) => {
  const { app, fake } = await billingApp(t);
  const res = await app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: { ...CHECKOUT, customer_email: 'a@example.com' } });
  assert.equal(res.statusCode, 200, res.body);
  const out = body(res);
  assert.deepEqual(Object.keys(out).sort(), ['session_id', 'url']);
  assert.match(out.session_id, /^cs_test_/);
  assert.equal(out.url, fake.sessions.get(out.session_id)!.url);
  const sent = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
  assert.equal(sent.body.mode, 'subscription');
  assert.deepEqual(sent.body.line_items, [{ price: 'price_test_metered' }]);
  assert.equal(sent.body.success_url, CHECKOUT.success_url);
  assert.equal(sent.body.cancel_url, CHECKOUT.cancel_url);
  assert.equal(sent.body.customer_email, 'a@example.com');
});

test('checkout rejects a bad body with 400 and creates no session', async (t) => {
  const { app, fake } = await billingApp(t);
  const bad = [
    {},
    { success_url: 'https://example.com/ok' },
    { ...CHECKOUT, success_url: 'javascript:alert(1)' },
    { ...CHECKOUT, customer_email: 'not-an-email' },
    { ...CHECKOUT, tier: 'pro' },
  ];
  for (const payload of bad) {
    const res = await app.inject({ method: 'POST', url: '/v1/billing/checkout', payload });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.equal(typeof body(res).detail, 'string');
  }
  const text = await app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: { 'content-type': 'application/json' }, payload: '{"success_url":' });
  assert.equal(text.statusCode, 400);
  assert.equal(fake.sessions.size, 0);
});

test('checkout answers 503 (not 500) when Stripe keeps failing, and 503 when the price is not configured', async (t) => {
  const { app, fake } = await billingApp(t);
  fake.failNext(1);
  const res = await app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: CHECKOUT });
  assert.equal(res.statusCode, 503);
  assert.doesNotMatch(res.body, /injected|sk_test/);

  const noPrice = await build(t, fake.env({ STRIPE_PRICE_ID: '' }));
  const res2 = await noPrice.inject({ method: 'POST', url: '/v1/billing/checkout', payload: CHECKOUT });
  assert.equal(res2.statusCode, 503);
  assert.match(body(res2).detail, /STRIPE_PRICE_ID/);
});

test('portal returns the session url; return_url is optional; unknown customer is 404', async (t) => {
  const { app, fake } = await billingApp(t);
  const customer = fake.createCustomer({ email: 'c@example.com' });
  // A customer of this service: it holds a key (a portal opens only for such customers).
  await app.state.keys.create({ keyHash: 'h'.repeat(64), prefix: 'am_h', tier: 'paid', customerId: customer.id, subscriptionId: 'sub_c' });
  const res = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: customer.id, return_url: 'https://example.com/account' } });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(Object.keys(body(res)), ['url']);
  assert.equal(body(res).url, fake.portalSessions[0].url);
  assert.equal(fake.portalSessions[0].return_url, 'https://example.com/account');

  const noReturn = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: customer.id } });
  assert.equal(noReturn.statusCode, 200);
  assert.equal(fake.portalSessions[1].return_url, null);

  const unknown = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: 'cus_nobody' } });
  assert.equal(unknown.statusCode, 404);
  assert.match(body(unknown).detail, /customer/i);

  const bad = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: 'x; drop', return_url: 'ftp://x' } });
  assert.equal(bad.statusCode, 400);
});

test('portal with a key of another customer answers 401', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, customer } = await paidCheckout(app, fake);
  const key = body(await fromCheckout(app, sessionId)).api_key;
  const other = fake.createCustomer();
  const res = await app.inject({ method: 'POST', url: '/v1/billing/portal', headers: { 'x-api-key': key }, payload: { customer_id: other.id } });
  assert.equal(res.statusCode, 401);
  const own = await app.inject({ method: 'POST', url: '/v1/billing/portal', headers: { 'x-api-key': key }, payload: { customer_id: customer.id } });
  assert.equal(own.statusCode, 200);
});

test('from-checkout: 402 while unpaid, the key once when paid, 409 after', async (t) => {
  const { app, fake } = await billingApp(t);
  const created = await app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: CHECKOUT });
  const sessionId = body(created).session_id;

  const unpaid = await fromCheckout(app, sessionId);
  assert.equal(unpaid.statusCode, 402);
  assert.match(body(unpaid).detail, /not paid/);
  assert.equal((await app.state.keys.list()).length, 0);

  const { customer, subscription } = fake.completeSession(sessionId);
  const first = await fromCheckout(app, sessionId);
  assert.equal(first.statusCode, 200, first.body);
  const out = body(first);
  assert.deepEqual(Object.keys(out).sort(), ['api_key', 'customer_id', 'tier']);
  assert.equal(out.tier, 'paid');
  assert.equal(out.customer_id, customer.id);
  assert.match(out.api_key, /^am_[0-9A-Za-z]{32,}$/);
  assert.equal(first.headers['cache-control'], 'no-store');

  const stored = await app.state.keys.findByHash(hashApiKey(out.api_key));
  assert.equal(stored?.tier, 'paid');
  assert.equal(stored?.subscriptionId, subscription.id);
  assert.equal(stored?.customerId, customer.id);

  const ping = await app.inject({ method: 'GET', url: '/v1/ping', headers: { authorization: `Bearer ${out.api_key}` } });
  assert.equal(body(ping).authenticated, true);
  assert.equal(body(ping).tier, 'paid');

  const again = await fromCheckout(app, sessionId);
  assert.equal(again.statusCode, 409);
  assert.doesNotMatch(again.body, /am_/);
  assert.equal((await app.state.keys.list()).length, 1);
});

test('from-checkout: a complete but unpaid session is 402; unknown session 404; malformed id 400', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId } = await paidCheckout(app, fake);
  fake.sessions.get(sessionId)!.payment_status = 'unpaid';
  assert.equal((await fromCheckout(app, sessionId)).statusCode, 402);
  assert.equal((await fromCheckout(app, 'cs_test_doesnotexist')).statusCode, 404);
  assert.equal((await fromCheckout(app, '../../v1/customers')).statusCode, 400);
  assert.equal((await app.state.keys.list()).length, 0);
});

test('webhook first, then from-checkout reveals that same key once', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription } = await paidCheckout(app, fake);

  const { res } = await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.equal(res.statusCode, 200);
  const keys = await app.state.keys.list();
  assert.equal(keys.length, 1);
  const issuance = await app.state.issuance.find(subscription.id);
  assert.ok(issuance?.sealedKey, 'the plaintext waits sealed');
  assert.doesNotMatch(issuance.sealedKey, /am_/);

  const revealed = await fromCheckout(app, sessionId);
  assert.equal(revealed.statusCode, 200, revealed.body);
  assert.equal(hashApiKey(body(revealed).api_key), keys[0].keyHash);
  assert.equal((await app.state.issuance.find(subscription.id))?.sealedKey, null, 'the stash is deleted');

  assert.equal((await fromCheckout(app, sessionId)).statusCode, 409);
  assert.equal((await app.state.keys.list()).length, 1);
});

test('from-checkout first, then the webhook issues nothing more', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription } = await paidCheckout(app, fake);
  const first = await fromCheckout(app, sessionId);
  assert.equal(first.statusCode, 200);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  await deliver(
    app,
    fake,
    'invoice.paid',
    fake.addInvoice(subscription.customer, { parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } } }),
  );
  const keys = await app.state.keys.list();
  assert.equal(keys.length, 1);
  assert.equal(keys[0].keyHash, hashApiKey(body(first).api_key));
  assert.equal((await fromCheckout(app, sessionId)).statusCode, 409);
});

test('a stash sealed under SERVER_SECRET reveals after a restart with the same secret', async (t) => {
  const { app, fake } = await billingApp(t, { SERVER_SECRET: 'a-server-secret-for-tests' });
  const { sessionId, subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  const keyHash = (await app.state.keys.list())[0].keyHash;
  await app.close();
  const again = await build(t, fake.env({ DATA_DIR: app.config.dataDir, SERVER_SECRET: 'a-server-secret-for-tests', STRIPE_METER_FLUSH_SECONDS: '0' }));
  const res = await fromCheckout(again, sessionId);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(hashApiKey(body(res).api_key), keyHash);
});

for (const factory of FACTORIES) {
  test(`concurrent from-checkout and webhook deliveries hand out exactly one key (${factory.kind})`, { skip: factory.skip }, async (t) => {
    const fake = await startFakeStripe(t);
    const { app } = await buildWithStore(t, factory, fake.env({ STRIPE_METER_FLUSH_SECONDS: '0' }));
    const { sessionId, subscription } = await paidCheckout(app, fake);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => fromCheckout(app, sessionId)),
      deliver(app, fake, 'customer.subscription.created', subscription).then((d) => d.res),
      ...Array.from({ length: 2 }, () => fromCheckout(app, sessionId)),
    ]);
    const keys = results.filter((r) => r.statusCode === 200 && 'api_key' in body(r)).map((r) => body(r).api_key as string);
    assert.equal(keys.length, 1, results.map((r) => r.statusCode).join(','));
    assert.equal(results.filter((r) => r.statusCode === 409).length, 5);
    const active = (await app.state.keys.list()).filter((k) => k.status === 'active' && k.subscriptionId === subscription.id);
    assert.equal(active.length, 1);
    assert.equal(active[0].keyHash, hashApiKey(keys[0]));
  });
}
