// POST /v1/billing/webhook: signature, tolerance, idempotence and the five
// events of the contract, with events signed in Stripe's scheme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { billingApp, countRows, deliver, failInTransaction, fromCheckout, paidCheckout } from './helpers.ts';

test('a bad, missing or foreign signature answers 400 and changes nothing', async (t) => {
  const { app, fake } = await billingApp(t);
  const subscription = fake.createSubscription(fake.createCustomer().id, 'price_test_metered');
  const { payload, header } = fake.signedEvent('customer.subscription.created', subscription, { id: 'evt_sig_1' });
  const post = (headers: Record<string, string>, data = payload) =>
    app.inject({ method: 'POST', url: '/v1/billing/webhook', headers: { 'content-type': 'application/json', ...headers }, payload: data });

  const cases: [string, Record<string, string>, string?][] = [
    ['missing header', {}],
    ['garbage header', { 'payment-signature': 'nonsense' }],
    ['wrong secret', { 'payment-signature': fake.sign(payload, { secret: 'whsec_other' }) }],
    ['tampered body', { 'payment-signature': header }, payload.replace('"active"', '"canceled"')],
    ['stripe header name instead of ours', { 'stripe-signature': header }],
  ];
  for (const [name, headers, data] of cases) {
    const res = await post(headers, data);
    assert.equal(res.statusCode, 400, name);
    assert.equal(typeof body(res).detail, 'string', name);
    assert.doesNotMatch(res.body, /whsec_/, name);
  }
  assert.equal((await app.state.keys.list()).length, 0);
  assert.equal(countRows(app, 'webhook_events'), 0, 'no event id was claimed');

  // The same event, correctly signed, is then processed (it was not marked seen).
  const ok = await post({ 'payment-signature': header });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(body(ok), { status: 'received' });
  assert.equal((await app.state.keys.list()).length, 1);
});

test('a signature older than the 300-second tolerance answers 400', async (t) => {
  const { app, fake } = await billingApp(t);
  const subscription = fake.createSubscription(fake.createCustomer().id, 'price_test_metered');
  const stale = await deliver(app, fake, 'customer.subscription.created', subscription, { timestamp: Math.floor(Date.now() / 1000) - 301 });
  assert.equal(stale.res.statusCode, 400);
  assert.match(body(stale.res).detail, /tolerance/);
  assert.equal((await app.state.keys.list()).length, 0);
  const recent = await deliver(app, fake, 'customer.subscription.created', subscription, { timestamp: Math.floor(Date.now() / 1000) - 120 });
  assert.equal(recent.res.statusCode, 200);
  assert.equal((await app.state.keys.list()).length, 1);
});

test('webhook answers 503 when no webhook secret is configured, and is not limited per address', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1' });
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/billing/webhook',
      headers: { 'content-type': 'application/json', 'payment-signature': 't=1,v1=x' },
      payload: '{}',
    });
    assert.equal(res.statusCode, 503);
  }
});

test('a replayed event id answers received and has no effect', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  const first = await deliver(app, fake, 'customer.subscription.created', subscription, { id: 'evt_replay' });
  assert.equal(first.res.statusCode, 200);
  const replay = await app.inject({
    method: 'POST',
    url: '/v1/billing/webhook',
    headers: { 'content-type': 'application/json', 'payment-signature': fake.sign(first.payload) },
    payload: first.payload,
  });
  assert.equal(replay.statusCode, 200);
  assert.deepEqual(body(replay), { status: 'received' });
  assert.equal((await app.state.keys.list()).length, 1);

  // An older update replayed after a newer one does not roll the status back.
  await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'past_due' }, { id: 'evt_upd_1' });
  await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'active' }, { id: 'evt_upd_2' });
  await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'past_due' }, { id: 'evt_upd_1' });
  assert.equal((await app.state.keys.findBySubscription(subscription.id))?.subscriptionStatus, 'active');
});

test('customer.subscription.created issues one paid key for the subscription', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription, customer } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  const key = await app.state.keys.findBySubscription(subscription.id);
  assert.equal(key?.tier, 'paid');
  assert.equal(key?.status, 'active');
  assert.equal(key?.customerId, customer.id);
  assert.equal(key?.subscriptionStatus, 'active');
  // A second creation event (another id) for the same subscription issues nothing more.
  await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.equal((await app.state.keys.list()).length, 1);
});

test('invoice.paid issues the key as a safety net when the creation event was missed, once', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription, customer } = await paidCheckout(app, fake);
  const invoice = fake.addInvoice(customer.id, { parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } } });
  await deliver(app, fake, 'invoice.paid', invoice);
  assert.equal((await app.state.keys.list()).length, 1);
  assert.equal((await app.state.keys.findBySubscription(subscription.id))?.customerId, customer.id);
  await deliver(app, fake, 'invoice.paid', fake.addInvoice(customer.id, { subscription: subscription.id }));
  await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.equal((await app.state.keys.list()).length, 1);
  // The safety-net key is the one from-checkout reveals.
  const res = await fromCheckout(app, sessionId);
  assert.equal(res.statusCode, 200);
  // An invoice without a subscription issues nothing.
  await deliver(app, fake, 'invoice.paid', fake.addInvoice(customer.id));
  assert.equal((await app.state.keys.list()).length, 1);
});

test('customer.subscription.updated synchronises the status', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'past_due' });
  const key = await app.state.keys.findBySubscription(subscription.id);
  assert.equal(key?.subscriptionStatus, 'past_due');
  assert.equal(key?.status, 'active');
});

test('customer.subscription.deleted revokes the key: 401 everywhere after', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription } = await paidCheckout(app, fake);
  const apiKey = body(await fromCheckout(app, sessionId)).api_key;
  const before = await app.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-api-key': apiKey } });
  assert.equal(body(before).tier, 'paid');

  const { res } = await deliver(app, fake, 'customer.subscription.deleted', { ...subscription, status: 'canceled' });
  assert.deepEqual(body(res), { status: 'received' });
  const key = await app.state.keys.findBySubscription(subscription.id);
  assert.equal(key?.status, 'revoked');
  for (const url of ['/v1/ping', '/v1/programs/search?q=補助金', '/v1/me/billing_history']) {
    const r = await app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey } });
    assert.equal(r.statusCode, 401, url);
  }
  // Anonymous (free tier) calls still work.
  assert.equal((await app.inject({ method: 'GET', url: '/v1/ping' })).statusCode, 200);
});

test('customer.subscription.deleted before the reveal: from-checkout answers 409, not a dead key', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  await deliver(app, fake, 'customer.subscription.deleted', { ...subscription, status: 'canceled' });
  const res = await fromCheckout(app, sessionId);
  assert.equal(res.statusCode, 409);
  assert.doesNotMatch(res.body, /am_/);
});

test('invoice.payment_failed is recorded', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription, customer } = await paidCheckout(app, fake);
  const invoice = fake.addInvoice(customer.id, {
    status: 'open',
    amount_paid: 0,
    parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
  });
  const { res } = await deliver(app, fake, 'invoice.payment_failed', invoice);
  assert.equal(res.statusCode, 200);
  assert.equal(countRows(app, 'payment_failures', 'customer_id = ? AND subscription_id = ? AND invoice_id = ?', [customer.id, subscription.id, invoice.id]), 1);
});

test('unknown event types are acknowledged and ignored; malformed JSON under a valid signature is 400', async (t) => {
  const { app, fake } = await billingApp(t);
  const { res } = await deliver(app, fake, 'charge.refunded', { id: 'ch_1', object: 'charge' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(body(res), { status: 'received' });
  assert.equal((await app.state.keys.list()).length, 0);

  const broken = '{"id": "evt_broken", "type":';
  const bad = await app.inject({
    method: 'POST',
    url: '/v1/billing/webhook',
    headers: { 'content-type': 'application/json', 'payment-signature': fake.sign(broken) },
    payload: broken,
  });
  assert.equal(bad.statusCode, 400);
  const notEvent = '{"hello": "world"}';
  const bad2 = await app.inject({
    method: 'POST',
    url: '/v1/billing/webhook',
    headers: { 'content-type': 'application/json', 'payment-signature': fake.sign(notEvent) },
    payload: notEvent,
  });
  assert.equal(bad2.statusCode, 400);
});

test('the signature is checked over the raw bytes, whatever the content type', async (t) => {
  const { app, fake } = await billingApp(t);
  const subscription = fake.createSubscription(fake.createCustomer().id, 'price_test_metered');
  // Whitespace and key order a JSON re-serialisation would change.
  const { event } = fake.signedEvent('customer.subscription.created', subscription);
  const payload = JSON.stringify(event, null, 2);
  for (const contentType of ['application/json; charset=utf-8', 'text/plain']) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/billing/webhook',
      headers: { 'content-type': contentType, 'payment-signature': fake.sign(payload) },
      payload,
    });
    assert.equal(res.statusCode, 200, contentType);
  }
  assert.equal((await app.state.keys.list()).length, 1);
});

test('an event whose processing failed is not marked seen: the provider retry processes it', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  // Fault injection on the real store: inside the webhook's transaction, the next status write fails once.
  failInTransaction(app, 'keys', 'setSubscriptionStatus');
  const failed = await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'past_due' }, { id: 'evt_retry_me' });
  assert.equal(failed.res.statusCode, 500);
  assert.doesNotMatch(failed.res.body, /connection lost/);
  const retried = await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'past_due' }, { id: 'evt_retry_me' });
  assert.equal(retried.res.statusCode, 200);
  assert.equal((await app.state.keys.findBySubscription(subscription.id))?.subscriptionStatus, 'past_due');
});
