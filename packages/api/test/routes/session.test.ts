// The developer portal's session (POST /v1/session, /v1/session/logout): the
// cookie it sets, what it authenticates and what it does not, CSRF, expiry,
// revocation, and that neither the key nor the session id is ever stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { CROSS_ORIGIN, KEY_REQUIRED, SESSION_ENDED } from '../../src/plugins/auth.ts';
import { hashSessionId, SESSION_COOKIE } from '../../src/access/session.ts';

const ORIGIN = 'http://localhost:80';
const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };

async function paidKey(app: FastifyInstance) {
  const key = generateApiKey();
  const record = await app.state.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: null });
  return { ...key, id: record.id };
}

/** Log in as a browser on this origin would; returns the cookie pair and the raw Set-Cookie. */
async function login(app: FastifyInstance, apiKey: string, headers: Record<string, string> = SAME_ORIGIN) {
  const res = await app.inject({ method: 'POST', url: '/v1/session', headers, payload: { api_key: apiKey } });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { res, setCookie, cookie: setCookie.split(';')[0] };
}

test('login sets an HttpOnly, SameSite=Strict, expiring cookie holding an opaque id, not the key', async (t) => {
  const app = await build(t, { SESSION_TTL_SECONDS: '3600' });
  const key = await paidKey(app);
  const { res, setCookie, cookie } = await login(app, key.key);
  assert.equal(res.statusCode, 200, res.body);
  const out = body(res);
  assert.deepEqual(Object.keys(out).sort(), ['expires_at', 'key_prefix', 'tier']);
  assert.equal(out.key_prefix, key.prefix);
  assert.equal(out.tier, 'paid');
  const lifetime = Date.parse(out.expires_at) - Date.now();
  assert.ok(lifetime > 3590_000 && lifetime <= 3600_000, `expires in about an hour (${lifetime} ms)`);
  assert.match(cookie, new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
  for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/v1', 'Max-Age=3600']) assert.ok(setCookie.includes(attribute), `${attribute} in ${setCookie}`);
  assert.match(setCookie, /Expires=\w{3}, \d\d \w{3} \d{4}/);
  assert.ok(!setCookie.includes('Secure'), 'plain HTTP: not Secure (the browser would drop it)');
  assert.ok(!setCookie.includes(key.key) && !res.body.includes(key.key), 'the key is never echoed');
  assert.equal(res.headers['cache-control'], 'no-store');
  // The store holds the hash of the id and the key's row id: neither the id nor the key.
  const id = cookie.split('=')[1];
  assert.ok(await app.state.sessions.findLive(hashSessionId(id), new Date().toISOString()));
  assert.equal(await app.state.sessions.findLive(id, new Date().toISOString()), null);
});

test('over TLS (a trusted proxy saying https) the cookie is Secure', async (t) => {
  // This proxy names the public host in X-Forwarded-Host, which is believed only when the operator says so (issue 11, finding 1).
  const app = await build(t, { TRUST_PROXY: '1', TRUST_FORWARDED_HOST: 'true' });
  const key = await paidKey(app);
  const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.jp', origin: 'https://api.example.jp' };
  const { res, setCookie } = await login(app, key.key, headers);
  assert.equal(res.statusCode, 200, res.body);
  assert.ok(setCookie.includes('Secure'), setCookie);
  const logout = await app.inject({ method: 'POST', url: '/v1/session/logout', headers });
  assert.ok(String(logout.headers['set-cookie']).includes('Secure'));
});

test('the cookie authenticates the /v1/me* calls of the account page, and nothing else', async (t) => {
  const app = await build(t);
  const key = await paidKey(app);
  const { cookie } = await login(app, key.key);
  const session = await app.inject({ url: '/v1/session', headers: { cookie } });
  assert.equal(session.statusCode, 200, session.body);
  assert.equal(body(session).key_prefix, key.prefix);
  assert.ok(Date.parse(body(session).expires_at) > Date.now(), 'the page learns when its session ends');
  assert.equal(body(await app.inject({ url: '/v1/session', headers: { 'x-api-key': key.key } })).expires_at, null, 'a key header is no session');
  assert.deepEqual(body(await app.inject({ url: '/v1/session' })), { detail: KEY_REQUIRED });
  const me = await app.inject({ url: '/v1/me', headers: { cookie } });
  assert.equal(me.statusCode, 200, me.body);
  assert.equal(body(me).key_prefix, key.prefix);
  assert.equal((await app.inject({ url: '/v1/me/dashboard', headers: { cookie } })).statusCode, 200);
  assert.equal((await app.inject({ url: '/v1/me/billing_history', headers: { cookie } })).statusCode, 200);
  const cap = await app.inject({ method: 'POST', url: '/v1/me/cap', headers: { cookie, ...SAME_ORIGIN }, payload: { monthly_cap_yen: 1200 } });
  assert.equal(cap.statusCode, 200, cap.body);
  assert.equal((await app.state.keys.findById(key.id))?.monthlyCapYen, 1200);
  // A route that does not declare `session` ignores the cookie: the call is anonymous.
  const ping = await app.inject({ url: '/v1/ping', headers: { cookie } });
  assert.equal(body(ping).authenticated, false);
  // A key header wins over the cookie.
  const other = await paidKey(app);
  assert.equal(body(await app.inject({ url: '/v1/me', headers: { cookie, 'x-api-key': other.key } })).key_prefix, other.prefix);
});

test('CSRF: a cookie-borne POST from another origin is refused; a keyed one is not', async (t) => {
  const app = await build(t);
  const key = await paidKey(app);
  const { cookie } = await login(app, key.key);
  const setCap = (headers: Record<string, string>, payload: unknown = { monthly_cap_yen: 700 }) =>
    app.inject({ method: 'POST', url: '/v1/me/cap', headers, payload: payload as object });
  const crossOrigin: Record<string, string>[] = [
    { cookie, 'sec-fetch-site': 'cross-site' },
    { cookie, 'sec-fetch-site': 'same-site', origin: 'http://localhost:9999' },
    { cookie, origin: 'http://evil.example' },
  ];
  for (const headers of crossOrigin) {
    const res = await setCap(headers);
    assert.equal(res.statusCode, 403, JSON.stringify(headers));
    assert.deepEqual(body(res), { detail: CROSS_ORIGIN });
  }
  assert.equal((await app.state.keys.findById(key.id))?.monthlyCapYen, null, 'nothing changed');
  // A form post cannot carry JSON: another content type answers 415 before any handler.
  const form = await app.inject({
    method: 'POST',
    url: '/v1/me/cap',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'monthly_cap_yen=1',
  });
  assert.equal(form.statusCode, 415);
  // Logging in or out from another origin is refused too.
  assert.equal((await login(app, key.key, { origin: 'http://evil.example' })).res.statusCode, 403);
  assert.equal((await app.inject({ method: 'POST', url: '/v1/session/logout', headers: { cookie, 'sec-fetch-site': 'cross-site' } })).statusCode, 403);
  // A key in a header is not ambient authority: another origin may use it (CORS allows any origin).
  assert.equal((await setCap({ 'x-api-key': key.key, origin: 'http://other.example' })).statusCode, 200);
  assert.equal((await setCap({ cookie, ...SAME_ORIGIN }, { monthly_cap_yen: null })).statusCode, 200);
});

test("the programme routes the explore page calls take the session's key from this server's pages only; elsewhere the cookie is ignored", async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '2' });
  const key = await paidKey(app);
  const { cookie } = await login(app, key.key);
  const calls: [string, string, object?][] = [
    ['GET', '/v1/programs/search?q=%E7%9C%81%E3%82%A8%E3%83%8D&limit=1'],
    ['GET', '/v1/programs/UNI-194743d166'],
    ['POST', '/v1/programs/batch', { unified_ids: ['UNI-194743d166'] }],
    ['POST', '/v1/exclusions/check', { program_ids: ['UNI-194743d166', 'UNI-76ff1702bc'] }],
  ];
  for (const [method, url, payload] of calls) {
    assert.equal(app.routePolicies.get(`${method} ${url.split('?')[0].replace('UNI-194743d166', ':unified_id')}`)?.session, 'pages', url);
    // From the explore page (Fetch Metadata: same-origin), past the anonymous allowance of 2: the paid key's calls.
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
        payload,
        remoteAddress: '198.51.100.20',
      });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.headers['ratelimit-remaining'], undefined, 'a paid key has no daily limit');
    }
    // A same-site page of another origin, a cross-site one, an Origin of elsewhere: the cookie is ignored (anonymous), never a 403.
    for (const headers of [
      { cookie, 'sec-fetch-site': 'same-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, origin: 'http://evil.example' },
      { cookie },
    ]) {
      const res = await app.inject({ method: method as 'GET', url, headers, payload, remoteAddress: '198.51.100.21' });
      assert.ok([200, 429].includes(res.statusCode), `${url} ${JSON.stringify(headers)}: ${res.statusCode}`);
      assert.ok(res.headers['ratelimit-limit'] === '2', 'counted against the address, anonymously');
    }
  }
  // The paid key was billed for the 12 page calls, the anonymous ones took the address's allowance.
  const usage = body(await app.inject({ url: '/v1/me/dashboard', headers: { 'x-api-key': key.key } }));
  let seen = usage.requests;
  for (let i = 0; i < 100 && seen < 12; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = body(await app.inject({ url: '/v1/me/dashboard', headers: { 'x-api-key': key.key } })).requests;
  }
  assert.equal(seen, 12);
  // An ended session on these routes: anonymous, not an error.
  await app.inject({ method: 'POST', url: '/v1/session/logout', headers: { cookie, ...SAME_ORIGIN } });
  const after = await app.inject({ url: calls[0][1], headers: { cookie, 'sec-fetch-site': 'same-origin' }, remoteAddress: '198.51.100.22' });
  assert.equal(after.statusCode, 200);
  assert.equal(after.headers['ratelimit-limit'], '2');
});

test('logout ends the session once and removes the cookie; an ended or expired session says so', async (t) => {
  const app = await build(t);
  const key = await paidKey(app);
  const { cookie } = await login(app, key.key);
  const out = await app.inject({ method: 'POST', url: '/v1/session/logout', headers: { cookie, ...SAME_ORIGIN } });
  assert.equal(out.statusCode, 200);
  assert.deepEqual(body(out), { ended: true });
  assert.match(String(out.headers['set-cookie']), new RegExp(`^${SESSION_COOKIE}=; Path=/v1; Max-Age=0; Expires=Thu, 01 Jan 1970`));
  const after = await app.inject({ url: '/v1/me', headers: { cookie } });
  assert.equal(after.statusCode, 401);
  assert.deepEqual(body(after), { detail: SESSION_ENDED });
  assert.deepEqual(body(await app.inject({ method: 'POST', url: '/v1/session/logout', headers: { cookie, ...SAME_ORIGIN } })), { ended: false });
  assert.deepEqual(body(await app.inject({ method: 'POST', url: '/v1/session/logout' })), { ended: false }, 'no cookie at all: still 200');

  // Expired: a session past its expiry is dead even though its row is still there.
  const id = 'A'.repeat(43);
  await app.state.sessions.create({
    idHash: hashSessionId(id),
    keyId: key.id,
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAt: new Date(Date.now() - 1000).toISOString(),
  });
  const expired = await app.inject({ url: '/v1/me/dashboard', headers: { cookie: `${SESSION_COOKIE}=${id}` } });
  assert.deepEqual([expired.statusCode, body(expired)], [401, { detail: SESSION_ENDED }]);
  // A cookie of the wrong shape is no cookie.
  const junk = await app.inject({ url: '/v1/me', headers: { cookie: `${SESSION_COOKIE}=<script>` } });
  assert.deepEqual(body(junk), { detail: KEY_REQUIRED });
});

test('a revoked key ends its sessions; bad keys cannot log in', async (t) => {
  const app = await build(t);
  const key = await paidKey(app);
  const { cookie } = await login(app, key.key);
  await app.state.keys.revoke(key.id);
  const res = await app.inject({ url: '/v1/me', headers: { cookie } });
  assert.deepEqual([res.statusCode, body(res)], [401, { detail: 'API key has been revoked' }]);
  assert.equal((await login(app, key.key)).res.statusCode, 401, 'a revoked key cannot log in');
  const wrong = await login(app, generateApiKey().key);
  assert.deepEqual([wrong.res.statusCode, body(wrong.res), wrong.setCookie], [401, { detail: 'Invalid API key' }, '']);
  assert.equal((await login(app, 'not a key')).res.statusCode, 401);
  const empty = await app.inject({ method: 'POST', url: '/v1/session', headers: SAME_ORIGIN, payload: { api_key: '' } });
  assert.equal(empty.statusCode, 400);
  const extra = await app.inject({ method: 'POST', url: '/v1/session', headers: SAME_ORIGIN, payload: { api_key: key.key, remember: true } });
  assert.equal(extra.statusCode, 400);
  assert.ok(!extra.body.includes(key.key), 'a validation error never echoes the key');
});

test('session routes are declared not counted and not billed', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1' });
  for (const route of ['POST /v1/session', 'POST /v1/session/logout']) {
    assert.deepEqual(
      app.routePolicies.get(route),
      { access: 'public', counter: null, billed: false, extraLimit: null, session: true, units: 'request', unitRows: null, countsAnonymous: true },
      route,
    );
  }
  for (const route of ['GET /v1/session', 'GET /v1/me', 'GET /v1/me/dashboard', 'POST /v1/me/cap', 'GET /v1/me/billing_history']) {
    assert.equal(app.routePolicies.get(route)?.session, true, route);
  }
  const addr = { remoteAddress: '203.0.113.9' };
  for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'POST', url: '/v1/session/logout', ...addr })).statusCode, 200);
});
