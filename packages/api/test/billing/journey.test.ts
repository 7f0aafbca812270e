// The full paid journey, through HTTP with the real Stripe SDK against the
// local fake, on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL:
// checkout -> payment -> webhook subscription.created -> key from checkout ->
// metered calls -> meter events at Stripe -> cap reached (402) ->
// subscription deleted -> 401.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body } from '../helper.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { FACTORIES } from '../state/stores.ts';
import { buildWithStore } from '../state/app.ts';
import { waitForPending } from './helpers.ts';

for (const factory of FACTORIES) {
  test(`paid journey end to end (${factory.kind})`, { skip: factory.skip }, async (t) => {
    const fake = await startFakeStripe(t);
    const { app } = await buildWithStore(t, factory, fake.env({ STRIPE_METER_FLUSH_SECONDS: '0', STRIPE_MAX_NETWORK_RETRIES: '0', UNIT_PRICE_YEN: '3' }));
    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, payload: payload as object, headers });

    // 1. Checkout.
    const checkout = await post('/v1/billing/checkout', {
      success_url: `${app.config.publicBaseUrl}/done?s={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.config.publicBaseUrl}/no`,
      customer_email: 'owner@example.com',
    });
    assert.equal(checkout.statusCode, 200, checkout.body);
    const sessionId = body(checkout).session_id as string;
    assert.equal((await post('/v1/billing/keys/from-checkout', { session_id: sessionId })).statusCode, 402, 'not paid yet');

    // 2. The customer pays; Stripe sends customer.subscription.created.
    const { subscription, customer } = fake.completeSession(sessionId);
    const { payload, header } = fake.signedEvent('customer.subscription.created', subscription);
    const hook = await app.inject({
      method: 'POST',
      url: '/v1/billing/webhook',
      headers: { 'content-type': 'application/json', 'payment-signature': header },
      payload,
    });
    assert.deepEqual(body(hook), { status: 'received' });

    // 3. The success page exchanges the session for the key, once.
    const issued = await post('/v1/billing/keys/from-checkout', { session_id: sessionId });
    assert.equal(issued.statusCode, 200, issued.body);
    const { api_key: apiKey, tier, customer_id } = body(issued);
    assert.equal(tier, 'paid');
    assert.equal(customer_id, customer.id);
    assert.equal((await post('/v1/billing/keys/from-checkout', { session_id: sessionId })).statusCode, 409);
    const auth = { 'x-api-key': apiKey };

    // 4. Metered calls with the key (paid: no daily limit), billed per request.
    const me = await app.inject({ method: 'GET', url: '/v1/me', headers: auth });
    assert.equal(me.statusCode, 200);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: `/v1/programs/search?limit=1&offset=${i}`, headers: auth });
      assert.equal(res.statusCode, 200, res.body);
    }
    const batch = await post('/v1/programs/batch', { unified_ids: ['nope-1', 'nope-2'] }, auth);
    assert.equal(batch.statusCode, 200, batch.body);

    // 5. The flusher reports them to Stripe as meter events of this customer.
    await waitForPending(app, 4);
    const flushed = await app.meterFlusher!.flush();
    assert.deepEqual(flushed, { sent: 4, duplicates: 0, failed: 0, parked: 0 });
    assert.equal(fake.billedUnits(customer.id), 4, 'four calls billed (one meter event per second of calls, its value their count)');
    for (const ev of fake.meterEvents.values()) {
      assert.equal(ev.event_name, 'api_requests');
      assert.equal(ev.payload.stripe_customer_id, customer.id);
    }

    // 6. A cap just above this month's spend: one more call fits, the next is refused with 402 and not billed.
    const capped = await post('/v1/me/cap', { monthly_cap_yen: 4 * 3 + 3 }, auth);
    assert.equal(capped.statusCode, 200, capped.body);
    assert.equal((await app.inject({ method: 'GET', url: '/v1/programs/search?limit=1', headers: auth })).statusCode, 200);
    await waitForPending(app, 1);
    const refused = await app.inject({ method: 'GET', url: '/v1/programs/search?limit=1', headers: auth });
    assert.equal(refused.statusCode, 402);
    assert.equal(body(refused).cap_yen, 15);
    assert.equal(body(refused).spent_yen, 15);
    await app.meterFlusher!.flush();
    assert.equal(fake.billedUnits(customer.id), 5, 'the refused call was not billed');

    // 7. Billing history of this customer.
    fake.addInvoice(customer.id, { amount_due: 15, amount_paid: 15 });
    const history = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: auth });
    assert.equal(history.statusCode, 200);
    assert.equal(body(history).customer_id, customer.id);
    assert.equal(body(history).invoices[0].amount_paid_yen, 15);

    // 8. The subscription ends: the key is revoked, every call with it is 401; anonymous still works.
    const ended = fake.signedEvent('customer.subscription.deleted', { ...subscription, status: 'canceled' });
    const del = await app.inject({
      method: 'POST',
      url: '/v1/billing/webhook',
      headers: { 'content-type': 'application/json', 'payment-signature': ended.header },
      payload: ended.payload,
    });
    assert.equal(del.statusCode, 200);
    for (const url of ['/v1/programs/search?limit=1', '/v1/me', '/v1/ping']) {
      assert.equal((await app.inject({ method: 'GET', url, headers: auth })).statusCode, 401, url);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/v1/programs/search?limit=1' })).statusCode, 200);
    assert.equal(fake.billedUnits(customer.id), 5);
  });
}
