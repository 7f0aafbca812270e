// Keys, limits, caps, usage, account, feedback, device and admin routes, over
// both state stores (PostgreSQL when TEST_DATABASE_URL is set).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { body } from '../helper.ts';
import { buildWithStore } from '../state/app.ts';
import { FACTORIES } from '../state/stores.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { approveDevice, denyDevice } from '../../src/access/device.ts';
import { isoJst, jstMonth, nextJstMidnight, nextUtcMidnight } from '../../src/lib/time.ts';
import type { StateStore } from '../../src/state/store.ts';
import type { Tier } from '../../src/state/repositories/keys.ts';

async function issue(store: StateStore, tier: Tier, customerId: string | null = null) {
  const k = generateApiKey();
  const record = await store.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId });
  return { key: k.key, record };
}

const ping = (app: FastifyInstance, headers: Record<string, string> = {}, remoteAddress = '192.0.2.10') =>
  app.inject({ url: '/v1/ping', headers, remoteAddress });

for (const factory of FACTORIES) {
  const opts = { skip: factory.skip };
  const name = (s: string) => `${factory.kind}: ${s}`;

  test(name('anonymous limit per address unit: 429 body, Retry-After to Japan midnight, unmetered paths free'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { ANON_DAILY_LIMIT: '3' });
    for (let i = 0; i < 3; i++) {
      const before = await ping(app, {}, '203.0.113.7');
      assert.equal(before.statusCode, 200);
      assert.equal(before.headers['ratelimit-limit'], '3');
      assert.equal(before.headers['ratelimit-remaining'], String(3 - i));
      assert.equal(body(before).rate_limit_remaining, 3 - i, 'the body says what the RateLimit-Remaining header says; a ping takes nothing');
      const res = await app.inject({ url: '/meta', remoteAddress: '203.0.113.7' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-remaining'], String(2 - i));
    }
    const before = new Date();
    const over = await ping(app, {}, '203.0.113.7');
    assert.equal(over.statusCode, 429);
    const b = body(over);
    assert.equal(b.limit, 3);
    assert.match(b.detail, /3/);
    assert.equal(b.resets_at, isoJst(nextJstMidnight(before)));
    assert.match(b.resets_at, /T00:00:00\+09:00$/);
    const retry = Number(over.headers['retry-after']);
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 86_400);
    assert.ok(Math.abs(retry - (nextJstMidnight(before).getTime() - before.getTime()) / 1000) <= 5);

    // The same IPv4 address seen as IPv4-mapped IPv6 is the same unit.
    assert.equal((await ping(app, {}, '::ffff:203.0.113.7')).statusCode, 429);
    // Another address has its own allowance; unmetered paths are never limited.
    assert.equal((await ping(app, {}, '203.0.113.8')).statusCode, 200);
    assert.equal((await app.inject({ url: '/healthz', remoteAddress: '203.0.113.7' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/openapi.json', remoteAddress: '203.0.113.7' })).statusCode, 200);
    // Metered beyond ping: /meta and the programs tree count.
    assert.equal((await app.inject({ url: '/meta', remoteAddress: '203.0.113.7' })).statusCode, 429);
    assert.equal((await app.inject({ url: '/v1/programs/search?q=x', remoteAddress: '203.0.113.7' })).statusCode, 429);
    // A valid key bypasses the address limit completely.
    const { key } = await issue((app as any).state, 'free');
    const keyed = await ping(app, { 'x-api-key': key }, '203.0.113.7');
    assert.equal(keyed.statusCode, 200);
    assert.equal(body(keyed).authenticated, true);
  });

  test(name('IPv6 callers share the limit per /64 prefix'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { ANON_DAILY_LIMIT: '2' });
    const meta = (remoteAddress: string) => app.inject({ url: '/meta', remoteAddress });
    assert.equal((await meta('2001:db8:aa:bb::1')).statusCode, 200);
    assert.equal((await meta('2001:0db8:00aa:00bb:ffff:1:2:3')).statusCode, 200);
    assert.equal((await meta('2001:db8:aa:bb::99')).statusCode, 429);
    assert.equal((await ping(app, {}, '2001:db8:aa:bb::99')).statusCode, 429, 'a spent allowance refuses pings too');
    assert.equal((await meta('2001:db8:aa:bc::1')).statusCode, 200, 'the next /64 is another unit');
  });

  test(name('free key: 100 per UTC day, then 429 naming 100 and free with Retry-After to UTC midnight'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { ANON_DAILY_LIMIT: '1' });
    const { key } = await issue(app.state, 'free');
    const first = await ping(app, { authorization: `Bearer ${key}` });
    assert.equal(body(first).tier, 'free');
    assert.equal(body(first).rate_limit_remaining, 99);
    for (let i = 1; i < 100; i++) {
      const res = await app.inject({ url: '/v1/programs/search?limit=1', headers: { 'x-api-key': key } });
      assert.equal(res.statusCode, 200);
    }
    const before = new Date();
    const over = await ping(app, { 'x-api-key': key });
    assert.equal(over.statusCode, 429);
    assert.match(body(over).detail, /\b100\b/);
    assert.match(body(over).detail, /\bfree\b/);
    const retry = Number(over.headers['retry-after']);
    assert.ok(Math.abs(retry - (nextUtcMidnight(before).getTime() - before.getTime()) / 1000) <= 5);
    // Account paths are not counted.
    assert.equal((await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } })).statusCode, 200);
  });

  test(name('paid key: never 429, ping null remaining, billed per 2xx metered call, ping and errors not billed'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { ANON_DAILY_LIMIT: '1', FREE_DAILY_LIMIT: '1', UNIT_PRICE_YEN: '3' });
    const { key, record } = await issue(app.state, 'paid', 'cus_paid');
    const h = { 'x-api-key': key };
    const p = await ping(app, h);
    assert.equal(body(p).tier, 'paid');
    assert.equal(body(p).rate_limit_remaining, null);
    assert.equal(p.headers['ratelimit-limit'], undefined, 'paid calls are not counted against a daily limit');
    for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: '/v1/programs/search?limit=1', headers: h })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/programs/NOPE-404', headers: h })).statusCode, 404);
    const batch = await app.inject({ method: 'POST', url: '/v1/programs/batch', headers: h, payload: { unified_ids: ['A', 'B', 'C'] } });
    assert.equal(batch.statusCode, 200);

    const month = jstMonth();
    assert.equal(await app.state.usage.monthlySpend(record.id, month), 18, '6 successful metered calls x 3 yen; ping and the 404 free');
    const dash = await app.inject({ url: '/v1/me/dashboard', headers: h });
    assert.equal(dash.statusCode, 200);
    const d = body(dash);
    assert.equal(d.month, month);
    assert.equal(d.requests, 8);
    assert.equal(d.billable_requests, 6);
    assert.equal(d.spend_yen, 18);
    assert.equal(d.cap_yen, null);
    assert.equal(d.remaining_yen, null);
    assert.equal(
      d.per_day.reduce((s: number, x: { requests: number }) => s + x.requests, 0),
      8,
    );
    assert.deepEqual(d.top_endpoints[0], { route: '/v1/programs/search', requests: 5 });
    const outbox = await app.state.meterOutbox.pending(100);
    assert.equal(outbox.length, 6);
    assert.ok(outbox.every((o) => o.customerId === 'cus_paid'));
  });

  test(name('monthly cap: 402 with cap and spend before the handler; not billed; null removes it'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' });
    const { key, record } = await issue(app.state, 'paid', 'cus_cap');
    const h = { 'x-api-key': key };
    const set = await app.inject({ method: 'POST', url: '/v1/me/cap', headers: h, payload: { monthly_cap_yen: 7 } });
    assert.equal(set.statusCode, 200);
    assert.deepEqual(body(set), { monthly_cap_yen: 7 });
    assert.equal((await app.inject({ url: '/v1/me', headers: h }).then(body)).monthly_cap_yen, 7);
    assert.equal((await app.inject({ url: '/v1/programs/search', headers: h })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/programs/search', headers: h })).statusCode, 200);
    const capped = await app.inject({ url: '/v1/programs/search', headers: h });
    assert.equal(capped.statusCode, 402);
    const cappedBody = body(capped);
    assert.deepEqual(Object.keys(cappedBody).sort(), ['cap_yen', 'detail', 'spent_yen']);
    assert.equal(cappedBody.cap_yen, 7);
    assert.equal(cappedBody.spent_yen, 6);
    assert.match(body(capped).detail, /cap/);
    assert.equal(await app.state.usage.monthlySpend(record.id, jstMonth()), 6, 'the refused call is not billed');
    assert.equal((await ping(app, h)).statusCode, 200, 'ping is never billed, so never capped');
    const dash = body(await app.inject({ url: '/v1/me/dashboard', headers: h }));
    assert.equal(dash.cap_yen, 7);
    assert.equal(dash.remaining_yen, 1);
    await app.inject({ method: 'POST', url: '/v1/me/cap', headers: h, payload: { monthly_cap_yen: null } });
    assert.equal((await app.inject({ url: '/v1/programs/search', headers: h })).statusCode, 200);
  });

  test(name('cap body validation: integer > 0 or null, else 400 and nothing changes'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory);
    const { key, record } = await issue(app.state, 'paid');
    for (const payload of [
      { monthly_cap_yen: 0 },
      { monthly_cap_yen: -5 },
      { monthly_cap_yen: 1.5 },
      { monthly_cap_yen: '100' },
      { monthly_cap_yen: true },
      {},
      { monthly_cap_yen: 5, extra: 1 },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/v1/me/cap', headers: { 'x-api-key': key }, payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(typeof body(res).detail, 'string');
    }
    assert.equal((await app.state.keys.findById(record.id))?.monthlyCapYen, null);
    assert.equal((await app.inject({ method: 'POST', url: '/v1/me/cap', payload: { monthly_cap_yen: 5 } })).statusCode, 401);
  });

  test(name('401 for unknown, malformed and revoked keys on every path; /v1/me needs a key'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory);
    const { key, record } = await issue(app.state, 'free', 'cus_x');
    const me = await app.inject({ url: '/v1/me', headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(body(me), { tier: 'free', customer_id: 'cus_x', key_prefix: record.prefix, created_at: record.createdAt, monthly_cap_yen: null });
    assert.ok(!me.body.includes(key), 'the key is never echoed');
    assert.equal((await app.inject('/v1/me')).statusCode, 401);
    assert.equal((await app.inject('/v1/me/dashboard')).statusCode, 401);

    const unknown = generateApiKey().key;
    for (const url of ['/v1/ping', '/meta', '/v1/programs/search', '/v1/me', '/healthz', '/v1/no-such-path']) {
      for (const headers of [{ 'x-api-key': unknown }, { authorization: `Bearer ${unknown}` }, { 'x-api-key': 'not-a-key' }]) {
        const res = await app.inject({ url, headers });
        assert.equal(res.statusCode, 401, `${url} ${JSON.stringify(headers)}`);
        assert.equal(typeof body(res).detail, 'string');
      }
    }
    assert.equal(await app.state.keys.revoke(record.prefix), 1);
    const revoked = await ping(app, { 'x-api-key': key });
    assert.equal(revoked.statusCode, 401);
    assert.match(body(revoked).detail, /revoked/);
  });

  test(name('usage: authenticated calls are recorded (ping counted, not billed); anonymous calls are not'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory);
    const { key, record } = await issue(app.state, 'free');
    await ping(app);
    await ping(app, { 'x-api-key': key });
    await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
    const summary = await app.state.usage.summary(record.id, jstMonth());
    assert.equal(summary.requests, 1, 'one keyed ping; /v1/me is not a usage event');
    assert.equal(summary.billableRequests, 0);
    assert.deepEqual(summary.topEndpoints, [{ route: '/v1/ping', requests: 1 }]);
  });

  test(name('feedback: validation, stored with key hash or address hash, daily limit 429'), opts, async (t) => {
    const { app, db } = await buildWithStore(t, factory, { FEEDBACK_DAILY_LIMIT: '2' });
    for (const payload of [
      {},
      { message: '' },
      { message: '   ' },
      { message: 'x'.repeat(4001) },
      { message: 'ok', rating: 6 },
      { message: 'ok', rating: 0 },
      { message: 'ok', rating: 2.5 },
      { message: 'ok', extra: 1 },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/v1/feedback', payload, remoteAddress: '198.51.100.20' });
      assert.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 60));
    }
    const anon = await app.inject({
      method: 'POST',
      url: '/v1/feedback',
      payload: { message: 'x'.repeat(4000), rating: 5, endpoint: '/v1/ping', request_id: 'req-1' },
      remoteAddress: '198.51.100.20',
    });
    assert.equal(anon.statusCode, 200);
    assert.equal(body(anon).received, true);
    assert.ok(Number.isInteger(body(anon).feedback_id));
    assert.equal((await app.inject({ method: 'POST', url: '/v1/feedback', payload: { message: 'two' }, remoteAddress: '198.51.100.20' })).statusCode, 200);
    const over = await app.inject({ method: 'POST', url: '/v1/feedback', payload: { message: 'three' }, remoteAddress: '198.51.100.20' });
    assert.equal(over.statusCode, 429);
    assert.equal(body(over).limit, 2);
    assert.ok(Number(over.headers['retry-after']) > 0);

    const { key } = await issue(app.state, 'paid', 'cus_fb');
    const keyed = await app.inject({
      method: 'POST',
      url: '/v1/feedback',
      headers: { 'x-api-key': key },
      payload: { message: 'keyed', rating: 3 },
      remoteAddress: '198.51.100.20',
    });
    assert.equal(keyed.statusCode, 200, 'a key has its own feedback allowance');
    const dump = await db.dump();
    const feedbackLine = dump.split('\n').find((l) => l.startsWith('feedback:'))!;
    assert.match(feedbackLine, /"customer_id":"cus_fb"/);
    assert.match(feedbackLine, /"tier":"paid"/);
    assert.match(feedbackLine, /"key_hash":"[0-9a-f]{64}"/);
    assert.match(feedbackLine, /"address_hash":"[0-9a-f]{64}"/);
    assert.ok(!feedbackLine.includes('198.51.100.20'));
  });

  test(name('device authorisation: pending, slow_down, approval hands the key over once; deny'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory);
    const start = await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: {} });
    assert.equal(start.statusCode, 200);
    const s = body(start);
    assert.match(s.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.ok(s.device_code.length >= 40);
    assert.ok(s.verification_uri_complete.startsWith(s.verification_uri));
    assert.ok(s.verification_uri_complete.includes(s.user_code));
    assert.equal(s.expires_in, 900);
    assert.equal(s.interval, 5);
    const grant = 'urn:ietf:params:oauth:grant-type:device_code';
    const poll = () =>
      app.inject({
        method: 'POST',
        url: '/v1/device/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: grant, device_code: s.device_code }).toString(),
      });
    const pending = await poll();
    assert.equal(pending.statusCode, 400);
    assert.equal(body(pending).error, 'authorization_pending');
    const verification = await app.inject(new URL(s.verification_uri_complete).pathname + new URL(s.verification_uri_complete).search);
    assert.equal(verification.statusCode, 200, 'the verification page exists');
    assert.match(verification.body, /waiting for approval/);
    assert.ok(verification.body.includes(s.user_code));
    const unknown = await app.inject('/device?user_code=%3Cscript%3E');
    assert.equal(unknown.statusCode, 404);
    assert.ok(!unknown.body.includes('<script>'), 'user input is escaped');
    assert.equal(body(await poll()).error, 'slow_down', 'polled again at once');

    const { prefix } = await approveDevice(app.state, app.config, s.user_code.toLowerCase().replace('-', ' '), 'paid', 'cus_dev');
    const token = await poll();
    assert.equal(token.statusCode, 200);
    const tk = body(token);
    assert.equal(tk.token_type, 'Bearer');
    assert.equal(tk.scope, 'api:read api:metered');
    assert.ok(tk.access_token.startsWith(prefix));
    const again = await poll();
    assert.equal(again.statusCode, 400, 'handed over exactly once');
    assert.equal(body(again).error, 'invalid_grant');
    const me = await app.inject({ url: '/v1/me', headers: { authorization: `Bearer ${tk.access_token}` } });
    assert.equal(body(me).tier, 'paid');
    assert.equal(body(me).customer_id, 'cus_dev');

    const denied = body(await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: { client_id: 'other', scope: 'api:read' } }));
    await denyDevice(app.state, denied.user_code);
    const refused = await app.inject({ method: 'POST', url: '/v1/device/token', payload: { grant_type: grant, device_code: denied.device_code } });
    assert.equal(body(refused).error, 'access_denied');
    await assert.rejects(approveDevice(app.state, app.config, denied.user_code, 'free', null), /already denied/);

    assert.equal(
      body(await app.inject({ method: 'POST', url: '/v1/device/token', payload: { grant_type: 'password', device_code: 'x' } })).error,
      'unsupported_grant_type',
    );
    assert.equal(
      body(await app.inject({ method: 'POST', url: '/v1/device/token', payload: { grant_type: grant, device_code: 'unknown' } })).error,
      'invalid_grant',
    );
    assert.equal((await app.inject({ method: 'POST', url: '/v1/device/token', payload: { grant_type: grant } })).statusCode, 400);
  });

  test(name('admin: 404 without ADMIN_API_KEY, 403 with a wrong key, views with the right one'), opts, async (t) => {
    const off = await buildWithStore(t, factory);
    assert.equal((await off.app.inject('/v1/admin/errors')).statusCode, 404);
    const { app } = await buildWithStore(t, factory, { ADMIN_API_KEY: 'admin-secret-123' });
    assert.equal((await app.inject('/v1/admin/errors')).statusCode, 403);
    assert.equal((await app.inject({ url: '/v1/admin/errors', headers: { 'x-admin-key': 'wrong' } })).statusCode, 403);
    await app.inject('/v1/programs/NOPE');
    await app.inject('/v1/programs/NOPE');
    const { key } = await issue(app.state, 'free');
    await ping(app, { 'x-api-key': key });
    const errors = await app.inject({ url: '/v1/admin/errors', headers: { 'x-admin-key': 'admin-secret-123' } });
    assert.equal(errors.statusCode, 200);
    const row = body(errors).rows.find((r: { route: string }) => r.route === '/v1/programs/:unified_id');
    assert.equal(row.status, 404);
    assert.equal(row.count, 2);
    const funnel = await app.inject({ url: '/v1/admin/funnel?days=3', headers: { authorization: 'Bearer admin-secret-123' } });
    assert.equal(funnel.statusCode, 200);
    const tiers = body(funnel).rows.map((r: { tier: string }) => r.tier);
    assert.ok(tiers.includes('anonymous') && tiers.includes('free'));
    const cohorts = body(await app.inject({ url: '/v1/admin/cohorts', headers: { 'x-admin-key': 'admin-secret-123' } }));
    assert.equal(cohorts.rows[0].keys, 1);
    assert.equal((await app.inject({ url: '/v1/admin/funnel?days=0', headers: { 'x-admin-key': 'admin-secret-123' } })).statusCode, 400);
  });
}
