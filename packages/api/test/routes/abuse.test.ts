// Abuse of the keyless writes (issue 11, findings 2, 5 and 8): the billing
// portal opens only for this service's customers, to their own key, towards
// an https (allow-listed) return_url, a few times per address, and every
// session is recorded; anonymous writes are limited per address; expired
// device codes are purged and one-time secrets are not kept for ever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body } from '../helper.ts';
import { billingApp, deliver, fromCheckout, paidCheckout } from '../billing/helpers.ts';
import { build } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { hashAddress } from '../../src/plugins/auth.ts';
import { approveDevice, hashDeviceCode } from '../../src/access/device.ts';
import { runMaintenance, DEVICE_CODE_GRACE_MS } from '../../src/state/maintenance.ts';

const XFF = (ip: string) => ({ 'x-forwarded-for': ip });

test('portal: own key only (401), https return_url on the allow-list, no enumeration, a limit per address, every session recorded', async (t) => {
  const { app, fake } = await billingApp(t, { TRUST_PROXY: '1', PORTAL_DAILY_LIMIT: '4', BILLING_RETURN_URL_ORIGINS: 'https://shop.example.jp' });
  const { sessionId, customer } = await paidCheckout(app, fake);
  const key = body(await fromCheckout(app, sessionId)).api_key as string;
  const portal = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/v1/billing/portal', headers: { ...XFF('203.0.113.50'), ...headers }, payload });

  const mine = await portal({ customer_id: customer.id, return_url: 'https://shop.example.jp/account' }, { 'x-api-key': key });
  assert.equal(mine.statusCode, 200, mine.body);
  const otherKey = generateApiKey();
  await app.state.keys.create({ keyHash: otherKey.hash, prefix: otherKey.prefix, tier: 'paid', customerId: 'cus_someone_else' });
  const foreign = await portal({ customer_id: customer.id }, { 'x-api-key': otherKey.key });
  assert.equal(foreign.statusCode, 401);
  assert.doesNotMatch(foreign.body, /cus_/, 'no customer id in the answer');

  for (const returnUrl of ['http://shop.example.jp/account', 'https://phish.example/login', 'javascript:alert(1)']) {
    const res = await portal({ customer_id: customer.id, return_url: returnUrl }, XFF('198.51.100.60'));
    assert.equal(res.statusCode, 400, returnUrl);
  }
  assert.equal(fake.portalSessions.length, 1, 'no refused call reached the provider');

  // An id this service never issued a key to, and one the provider no longer knows, answer alike.
  await app.state.keys.create({ keyHash: 'g'.repeat(64), prefix: 'am_gone', tier: 'paid', customerId: 'cus_deleted_at_provider' });
  const unknown = await portal({ customer_id: 'cus_never_seen' }, XFF('198.51.100.61'));
  const deleted = await portal({ customer_id: 'cus_deleted_at_provider' }, XFF('198.51.100.61'));
  assert.equal(unknown.statusCode, 404);
  assert.deepEqual([deleted.statusCode, deleted.body], [unknown.statusCode, unknown.body]);

  // The limit is per address: the fifth call of one address is refused, another address goes on.
  const addr = '192.0.2.77';
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await portal({ customer_id: customer.id }, XFF(addr))).statusCode);
  assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  assert.equal((await portal({ customer_id: customer.id }, XFF('192.0.2.78'))).statusCode, 200);

  const sessions = await app.state.portalSessions.listForCustomer(customer.id);
  assert.equal(sessions.length, 6, 'every opened session, none of the refused ones');
  const keyed = sessions.find((s) => s.keyPrefix !== null)!;
  assert.equal(keyed.keyPrefix, key.slice(0, keyed.keyPrefix!.length));
  assert.equal(keyed.addressHash, hashAddress('203.0.113.50', app.addressSalt()));
  assert.ok(
    sessions.every((s) => s.addressHash && /^[0-9a-f]{64}$/.test(s.addressHash)),
    'addresses kept as hashes only',
  );
});

test('anonymous writes are limited per address: device authorize, advisor signup and track share WRITE_DAILY_LIMIT', async (t) => {
  const app = await build(t, { TRUST_PROXY: '1', WRITE_DAILY_LIMIT: '3' });
  const signup = { firm_name: 'テスト税理士法人', firm_type: '税理士法人', specialties: ['補助金'], prefecture: '東京都', contact_email: 'a@example.jp' };
  const calls = [
    () => app.inject({ method: 'POST', url: '/v1/device/authorize', headers: XFF('203.0.113.80'), payload: {} }),
    () => app.inject({ method: 'POST', url: '/v1/advisors/signup', headers: XFF('203.0.113.80'), payload: signup }),
    () => app.inject({ method: 'POST', url: '/v1/device/authorize', headers: XFF('203.0.113.80'), payload: {} }),
    () => app.inject({ method: 'POST', url: '/v1/advisors/track', headers: XFF('203.0.113.80'), payload: { advisor_id: 99999 } }),
    () => app.inject({ method: 'POST', url: '/v1/advisors/signup', headers: XFF('203.0.113.80'), payload: signup }),
  ];
  const statuses = [];
  for (const call of calls) statuses.push((await call()).statusCode);
  assert.deepEqual(statuses, [200, 201, 200, 429, 429]);
  const refused = await app.inject({ method: 'POST', url: '/v1/device/authorize', headers: XFF('203.0.113.80'), payload: {} });
  assert.equal(refused.statusCode, 429);
  assert.match(body(refused).detail, /per day/);
  assert.ok(refused.headers['retry-after']);
  assert.equal((await app.inject({ method: 'POST', url: '/v1/device/authorize', headers: XFF('203.0.113.81'), payload: {} })).statusCode, 200);
  // A request the schema refuses takes nothing.
  for (let i = 0; i < 5; i++) {
    assert.equal((await app.inject({ method: 'POST', url: '/v1/advisors/signup', headers: XFF('203.0.113.82'), payload: { firm_name: 1 } })).statusCode, 400);
  }
  assert.equal((await app.inject({ method: 'POST', url: '/v1/advisors/signup', headers: XFF('203.0.113.82'), payload: signup })).statusCode, 201);
});

test('expired device codes are purged; a key approved but never picked up is revoked', async (t) => {
  const app = await build(t);
  const started = body(await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: {} }));
  const approvedLater = body(await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: {} }));
  const { keyId } = await approveDevice(app.state, app.config, approvedLater.user_code, 'free', null);
  assert.deepEqual(await runMaintenance(app.state, app.config), {
    deviceCodesPurged: 0,
    unclaimedDeviceKeysRevoked: 0,
    sealedKeysExpired: 0,
    unconfirmedSubscribersPurged: 0,
  });
  const later = new Date(Date.now() + 15 * 60_000 + DEVICE_CODE_GRACE_MS + 1000);
  const result = await runMaintenance(app.state, app.config, later);
  assert.equal(result.deviceCodesPurged, 2);
  assert.equal(result.unclaimedDeviceKeysRevoked, 1);
  assert.equal(await app.state.deviceCodes.findByHash(hashDeviceCode(started.device_code)), null);
  assert.equal((await app.state.keys.findById(keyId))?.status, 'revoked');
});

test('a key sealed by a webhook and never picked up is erased after SEALED_KEY_TTL_HOURS', async (t) => {
  const { app, fake } = await billingApp(t, { SEALED_KEY_TTL_HOURS: '1' });
  const { sessionId, subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.notEqual((await app.state.issuance.find(subscription.id))?.sealedKey, null);
  const result = await runMaintenance(app.state, app.config, new Date(Date.now() + 3600_000 + 1000));
  assert.equal(result.sealedKeysExpired, 1);
  assert.equal((await app.state.issuance.find(subscription.id))?.sealedKey, null);
  const late = await fromCheckout(app, sessionId);
  assert.equal(late.statusCode, 409, 'nothing left to reveal');
});
