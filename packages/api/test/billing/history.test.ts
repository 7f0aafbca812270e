// GET /v1/me/billing_history: shape, caching, keys without a customer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { billingApp, fromCheckout, paidCheckout } from './helpers.ts';

const INVOICE_KEYS = [
  'amount_due_yen',
  'amount_paid_yen',
  'created',
  'currency',
  'hosted_invoice_url',
  'id',
  'invoice_pdf',
  'number',
  'period_end',
  'period_start',
  'status',
];

test('billing history needs a key', async (t) => {
  const { app } = await billingApp(t);
  const res = await app.inject({ method: 'GET', url: '/v1/me/billing_history' });
  assert.equal(res.statusCode, 401);
  assert.equal(typeof body(res).detail, 'string');
  const bad = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': `am_${'x'.repeat(40)}` } });
  assert.equal(bad.statusCode, 401);
});

test('a key without a customer gets no invoices and customer_id null, without asking Stripe', async (t) => {
  const { app, fake } = await billingApp(t);
  const { key, hash, prefix } = generateApiKey();
  await app.state.keys.create({ keyHash: hash, prefix, tier: 'free' });
  const res = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200);
  const out = body(res);
  assert.deepEqual(Object.keys(out).sort(), ['cached_at', 'customer_id', 'invoices']);
  assert.deepEqual(out.invoices, []);
  assert.equal(out.customer_id, null);
  assert.ok(!Number.isNaN(Date.parse(out.cached_at)));
  assert.equal(fake.requests.filter((r) => r.path === '/v1/invoices').length, 0);
});

test('billing history lists the customer invoices in the contract shape, cached in the state store', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, customer } = await paidCheckout(app, fake);
  const apiKey = body(await fromCheckout(app, sessionId)).api_key;
  const older = fake.addInvoice(customer.id, {
    created: 1_750_000_000,
    period_start: 1_747_000_000,
    period_end: 1_750_000_000,
    amount_due: 1500,
    amount_paid: 1500,
  });
  const open = fake.addInvoice(customer.id, {
    created: 1_752_000_000,
    status: 'open',
    amount_due: 42,
    amount_paid: 0,
    number: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
  });
  fake.addInvoice(fake.createCustomer().id); // someone else's

  const res = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } });
  assert.equal(res.statusCode, 200, res.body);
  const out = body(res);
  assert.equal(out.customer_id, customer.id);
  assert.equal(out.invoices.length, 2);
  for (const inv of out.invoices) assert.deepEqual(Object.keys(inv).sort(), INVOICE_KEYS);
  assert.deepEqual(out.invoices[0], {
    id: open.id,
    number: null,
    period_start: new Date(open.period_start * 1000).toISOString().replace('.000Z', 'Z'),
    period_end: new Date(open.period_end * 1000).toISOString().replace('.000Z', 'Z'),
    amount_due_yen: 42,
    amount_paid_yen: 0,
    currency: 'jpy',
    status: 'open',
    hosted_invoice_url: null,
    invoice_pdf: null,
    created: '2025-07-08T18:40:00Z',
  });
  assert.equal(out.invoices[1].id, older.id);
  assert.equal(out.invoices[1].amount_paid_yen, 1500);
  assert.equal(out.invoices[1].period_start, '2025-05-11T21:46:40Z');
  assert.equal(typeof out.invoices[1].hosted_invoice_url, 'string');

  // Within the cache window: same answer, same cached_at, Stripe not asked again.
  fake.addInvoice(customer.id, { created: 1_753_000_000 });
  const again = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } });
  assert.deepEqual(body(again), out);
  assert.equal(fake.requests.filter((r) => r.path === '/v1/invoices').length, 1);
  assert.equal(fake.requests.find((r) => r.path === '/v1/invoices')!.query.customer, customer.id);
  assert.ok(await app.state.billingCache.get(customer.id));
});

test('an expired cache is refreshed; a Stripe outage serves the older copy', async (t) => {
  const { app, fake } = await billingApp(t, { BILLING_HISTORY_CACHE_SECONDS: '0' });
  const { sessionId, customer } = await paidCheckout(app, fake);
  const apiKey = body(await fromCheckout(app, sessionId)).api_key;
  fake.addInvoice(customer.id);
  const first = body(await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } }));
  assert.equal(first.invoices.length, 1);
  fake.addInvoice(customer.id);
  const second = body(await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } }));
  assert.equal(second.invoices.length, 2);

  fake.failNext(1, { pathPrefix: '/v1/invoices' });
  const degraded = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } });
  assert.equal(degraded.statusCode, 200);
  assert.equal(body(degraded).invoices.length, 2);
  assert.equal(body(degraded).cached_at, second.cached_at);
});

test('billing history with a customer and no cache answers 503 when Stripe is down', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId } = await paidCheckout(app, fake);
  const apiKey = body(await fromCheckout(app, sessionId)).api_key;
  fake.failNext(1, { pathPrefix: '/v1/invoices' });
  const res = await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } });
  assert.equal(res.statusCode, 503);
  assert.equal(typeof body(res).detail, 'string');
});

test('billing paths are never metered or billed', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, customer } = await paidCheckout(app, fake);
  const apiKey = body(await fromCheckout(app, sessionId)).api_key;
  for (let i = 0; i < 3; i++) {
    await app.inject({ method: 'GET', url: '/v1/me/billing_history', headers: { 'x-api-key': apiKey } });
    await app.inject({ method: 'POST', url: '/v1/billing/portal', headers: { 'x-api-key': apiKey }, payload: { customer_id: customer.id } });
  }
  assert.deepEqual(await app.state.meterOutbox.pending(100), []);
  const key = (await app.state.keys.list())[0];
  const { jstMonth } = await import('../../src/lib/time.ts');
  assert.equal(await app.state.usage.monthlySpend(key.id, jstMonth()), 0);
});
