// The unauthenticated billing paths cannot be turned against anyone (issue
// 24, M2): an anonymous caller drives Stripe only a few times a day per
// address, and every redirect the payment provider will follow (checkout
// success_url and cancel_url, the portal's return_url) lands on this
// service's own origin (PUBLIC_BASE_URL) or an https origin the operator
// lists (BILLING_RETURN_URL_ORIGINS), so a "subscribe here" link cannot hand
// a victim's new paid key to a stranger's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body } from '../helper.ts';
import { billingApp } from './helpers.ts';

const XFF = (address: string) => ({ 'x-forwarded-for': address });

test('checkout and portal redirect only to the origin of PUBLIC_BASE_URL and the https origins an operator lists', async (t) => {
  const { app, fake } = await billingApp(t, { PUBLIC_BASE_URL: 'https://api.example.jp', BILLING_RETURN_URL_ORIGINS: 'https://shop.example.jp' });
  const checkout = (success_url: string, cancel_url = 'https://api.example.jp/cancelled') =>
    app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: { success_url, cancel_url } });
  for (const [url, cancel] of [
    ['http://evil.example/steal?sid={CHECKOUT_SESSION_ID}', undefined],
    ['https://evil.example/steal?sid={CHECKOUT_SESSION_ID}', undefined],
    ['https://api.example.jp@evil.example/steal', undefined],
    ['https://api.example.jp.evil.example/steal', undefined],
    ['http://api.example.jp/thanks', undefined], // the configured origin is https
    ['http://shop.example.jp/thanks', undefined], // listed origins are https only
    ['https://api.example.jp:8443/thanks', undefined],
    ['https://api.example.jp/thanks', 'https://evil.example/cancel'],
  ] as const) {
    const res = await checkout(url, cancel);
    assert.equal(res.statusCode, 400, `${url} / ${cancel}: ${res.body}`);
    assert.match(body(res).detail, /^(success_url|cancel_url) must be on this service's origin \(https:\/\/api\.example\.jp\) or one it lists/);
  }
  assert.equal(fake.sessions.size, 0, 'no session was created for a refused redirect');
  assert.equal((await checkout('https://api.example.jp/thanks?sid={CHECKOUT_SESSION_ID}')).statusCode, 200);
  assert.equal((await checkout('https://shop.example.jp/thanks', 'https://shop.example.jp/no')).statusCode, 200);
  assert.equal(fake.sessions.size, 2);

  const customer = fake.createCustomer();
  await app.state.keys.create({ keyHash: 'h'.repeat(64), prefix: 'am_portal1', tier: 'paid', customerId: customer.id, subscriptionId: 'sub_p' });
  const portal = (return_url: string) => app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: customer.id, return_url } });
  const refused = await portal('https://evil.example/account');
  assert.equal(refused.statusCode, 400, refused.body);
  assert.match(body(refused).detail, /^return_url must be on this service's origin/);
  assert.equal((await portal('https://api.example.jp/account')).statusCode, 200);
  assert.equal((await portal('https://shop.example.jp/account')).statusCode, 200);
  assert.equal(fake.portalSessions.length, 2);
});

test('by default only the origin of PUBLIC_BASE_URL, as configured: http on a local set-up', async (t) => {
  const { app, fake } = await billingApp(t, { PUBLIC_BASE_URL: 'http://localhost:8080', BILLING_RETURN_URL_ORIGINS: '' });
  const checkout = (success_url: string) =>
    app.inject({ method: 'POST', url: '/v1/billing/checkout', payload: { success_url, cancel_url: 'http://localhost:8080/' } });
  assert.equal((await checkout('http://localhost:8080/thanks?sid={CHECKOUT_SESSION_ID}')).statusCode, 200);
  for (const url of ['https://localhost:8080/thanks', 'http://localhost:9090/thanks', 'https://example.com/ok']) {
    assert.equal((await checkout(url)).statusCode, 400, url);
  }
  const customer = fake.createCustomer();
  await app.state.keys.create({ keyHash: 'g'.repeat(64), prefix: 'am_portal2', tier: 'paid', customerId: customer.id, subscriptionId: 'sub_q' });
  const anyHttps = await app.inject({ method: 'POST', url: '/v1/billing/portal', payload: { customer_id: customer.id, return_url: 'https://example.com/x' } });
  assert.equal(anyHttps.statusCode, 400, 'with BILLING_RETURN_URL_ORIGINS unset, not any https URL');
  assert.equal(fake.sessions.size, 1);
  assert.equal(fake.portalSessions.length, 0);
});

test('anonymous checkouts and key look-ups reach Stripe at most CHECKOUT_DAILY_LIMIT times a day per address', async (t) => {
  const { app, fake } = await billingApp(t, { PUBLIC_BASE_URL: 'https://api.example.jp', TRUST_PROXY: '1', CHECKOUT_DAILY_LIMIT: '5' });
  const payload = { success_url: 'https://api.example.jp/thanks', cancel_url: 'https://api.example.jp/no' };
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    statuses.push((await app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: XFF('198.51.100.7'), payload })).statusCode);
  }
  assert.deepEqual(statuses, [...Array(5).fill(200), ...Array(7).fill(429)]);
  assert.equal(fake.sessions.size, 5, 'five sessions created, not twelve');
  const limited = await app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: XFF('198.51.100.7'), payload });
  assert.match(body(limited).detail, /Limit of 5 checkout sessions and key look-ups per day/);
  assert.ok(Number(limited.headers['retry-after']) > 0);
  // The same limit, shared, covers the look-ups of from-checkout (each a Stripe call), from another address.
  const lookups = () => fake.requests.filter((r) => r.path.startsWith('/v1/checkout/sessions/')).length;
  const before = lookups();
  const answers: number[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/billing/keys/from-checkout',
      headers: XFF('198.51.100.8'),
      payload: { session_id: `cs_test_random${i}` },
    });
    answers.push(res.statusCode);
  }
  assert.deepEqual(
    answers.map((s) => (s === 429 ? 429 : 'looked up')),
    [...Array(5).fill('looked up'), ...Array(7).fill(429)],
  );
  assert.equal(lookups() - before, 5, 'five Stripe look-ups, not twelve');
  // Another address is not held back.
  assert.equal((await app.inject({ method: 'POST', url: '/v1/billing/checkout', headers: XFF('198.51.100.9'), payload })).statusCode, 200);
});
