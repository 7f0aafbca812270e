// Route declarations (plugins/route-policy.ts): every registered route has
// one, a route without one stops the app at startup, and each access level
// answers as declared, the same way on every route that declares it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import routePolicy, { ACCESS, DEFAULTS, describePolicy, type RoutePolicy } from '../../src/plugins/route-policy.ts';
import { KEY_REQUIRED } from '../../src/plugins/auth.ts';
import { generateApiKey } from '../../src/access/keys.ts';

/** `METHOD path` of every route in the router, read from `printRoutes` (independent of the plugin's own registry). */
function routerRoutes(app: FastifyInstance): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    const path = stack.join('') + m[2];
    stack.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) out.push(`${method} ${path}`);
  }
  return out;
}

test("every registered route carries a declaration; HEAD routes inherit their GET route's", async (t) => {
  const app = await build(t);
  const routes = routerRoutes(app);
  assert.ok(routes.length >= 100, `${routes.length} routes found`);
  const undeclared = routes.filter((r) => !app.routePolicies.has(r));
  assert.deepEqual(undeclared, [], 'routes without a declaration');
  assert.equal(app.routePolicies.size, routes.length, 'the plugin saw exactly the routes of the router');
  for (const route of routes.filter((r) => r.startsWith('HEAD '))) {
    assert.deepEqual(app.routePolicies.get(route), app.routePolicies.get(route.replace(/^HEAD/, 'GET')), route);
  }
  for (const [route, policy] of app.routePolicies) assert.ok(Object.hasOwn(ACCESS, policy.access), route);
});

test('a route without a declaration, or with an inconsistent one, fails at startup', async () => {
  const app = Fastify();
  await app.register(routePolicy);
  const handler = async () => 'x';
  assert.throws(() => app.get('/undeclared', handler), /GET \/undeclared: no declaration/);
  assert.throws(() => app.get('/typo', { config: { access: 'everyone' as never } }, handler), /unknown access 'everyone'/);
  assert.throws(() => app.get('/free', { config: { access: 'public', billed: true } }, handler), /billed route must be counted/);
  assert.throws(() => app.get('/advisors/mine', { config: { access: 'advisor' } }, handler), /needs an :id/);
  assert.throws(() => app.get('/export', { config: { access: 'public', unitRows: 100 } }, handler), /unitRows must be counted/);
  assert.throws(() => app.get('/export2', { config: { access: 'public', counter: 'daily', unitRows: 0.5 } }, handler), /unitRows must be a positive integer/);
  assert.throws(() => app.get('/ops', { config: { access: 'admin', session: true } }, handler), /cannot accept the browser session/);
  assert.throws(() => app.get('/mine', { config: { access: 'key', session: 'pages' } }, handler), /session 'pages' is for public routes/);
  app.get('/ok', { config: { access: 'public' } }, handler);
  await app.ready();
  assert.throws(() => app.get('/rpc', { config: { access: 'public', units: 'jsonrpc-message' } }, handler), /needs a counter/);
  const expected: RoutePolicy = {
    access: 'public',
    counter: null,
    billed: false,
    extraLimit: null,
    session: false,
    units: 'request',
    unitRows: null,
    countsAnonymous: true,
  };
  assert.deepEqual(app.routePolicies.get('GET /ok'), expected, 'defaults: not counted, not billed');
  assert.deepEqual({ access: 'public', ...DEFAULTS }, expected, 'the defaults other tests build on');
  await app.close();
});

test('the declarations keep what each kind of route costs', async (t) => {
  const app = await build(t);
  const policy = (route: string) => app.routePolicies.get(route);
  const read = { access: 'public', ...DEFAULTS, counter: 'daily', billed: true };
  assert.deepEqual(policy('GET /v1/programs/search'), { ...read, unitRows: 100, session: 'pages' }, 'search exports: one unit per started 100 rows');
  assert.deepEqual(policy('GET /v1/laws/search'), { ...read, unitRows: 100 }, 'a record-set search exports: one unit per started 100 rows');
  assert.deepEqual(policy('POST /v1/programs/batch'), { ...read, session: 'pages' }, 'batch: one call, one unit');
  assert.equal(policy('GET /v1/programs/:unified_id')?.session, 'pages', "the explore page's calls take the portal session from its own pages");
  assert.equal(policy('POST /v1/exclusions/check')?.session, 'pages');
  assert.deepEqual(policy('GET /meta'), read);
  assert.deepEqual(policy('GET /v1/ping'), { ...read, billed: false, countsAnonymous: false }, 'ping: counted with a key, never billed');
  assert.deepEqual(policy('POST /v1/feedback'), { ...read, billed: false, extraLimit: 'feedback' });
  assert.deepEqual(
    policy('POST /mcp'),
    { ...read, billed: false, units: 'jsonrpc-message' },
    'one unit per JSON-RPC message; its tool calls are counted and billed in-process',
  );
  for (const route of ['GET /healthz', 'GET /device', 'GET /v1/openapi.json', 'POST /v1/billing/checkout', 'POST /v1/device/token']) {
    assert.equal(policy(route)?.counter, null, route);
  }
  assert.equal(policy('POST /v1/billing/webhook')?.access, 'signature');
  assert.equal(policy('GET /v1/advisors/:id/dashboard')?.access, 'advisor');
});

test('key: an anonymous call on every route declared `key` gets the one 401; a bad key 401s everywhere', async (t) => {
  const app = await build(t);
  const validBodies: Record<string, object> = {
    'POST /v1/me/cap': { monthly_cap_yen: 500 },
    'POST /v1/me/saved_searches': { name: 'x', query: {} },
    'POST /v1/me/webhooks': { url: 'https://example.com/hook', events: ['program.created'] },
  };
  const keyRoutes = [...app.routePolicies].filter(([route, p]) => p.access === 'key' && !route.startsWith('HEAD ')).map(([route]) => route);
  assert.ok(keyRoutes.length >= 4, keyRoutes.join());
  for (const route of keyRoutes) {
    const [method, url] = route.split(' ');
    const res = await app.inject({ method: method as 'GET', url, ...(validBodies[route] ? { payload: validBodies[route] } : {}) });
    assert.equal(res.statusCode, 401, `${route}: ${res.body}`);
    assert.deepEqual(body(res), { detail: KEY_REQUIRED }, route);
  }
  // A malformed request is still a 400 first, as before the declarations.
  assert.equal((await app.inject({ method: 'POST', url: '/v1/me/cap', payload: { monthly_cap_yen: 'x' } })).statusCode, 400);
  // `public` routes take anonymous calls, but a presented key must be valid.
  assert.equal((await app.inject('/v1/ping')).statusCode, 200);
  assert.equal((await app.inject({ url: '/v1/ping', headers: { 'x-api-key': 'am_notarealkeynotarealkeynotarealkey00' } })).statusCode, 401);
});

test('advisor: no key 401 (the one wording), another key the 404 of an unknown advisor, the bound key its dashboard', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  const owner = generateApiKey();
  const stranger = generateApiKey();
  for (const k of [owner, stranger]) await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const advisor = await app.state.advisors.create({
    firmName: '山田税理士法人',
    firmType: '税理士法人',
    specialties: ['補助金申請'],
    prefecture: '東京都',
    fields: {},
    ownerKeyHash: owner.hash,
    stripeAccountId: null,
    disabledReason: null,
    verifiedAt: new Date().toISOString(),
  });
  const dashboard = (id: number | string, key?: string) => app.inject({ url: `/v1/advisors/${id}/dashboard`, headers: key ? { 'x-api-key': key } : {} });
  const anonymous = await dashboard(advisor.id);
  assert.equal(anonymous.statusCode, 401);
  assert.deepEqual(body(anonymous), { detail: KEY_REQUIRED });
  const other = await dashboard(advisor.id, stranger.key);
  assert.equal(other.statusCode, 404);
  const unknown = await dashboard(999_999, owner.key);
  assert.equal(unknown.statusCode, 404);
  assert.equal(body(other).detail, body(unknown).detail.replace('999999', String(advisor.id)), 'another key learns nothing an unknown id would not say');
  assert.equal((await dashboard('abc', owner.key)).statusCode, 400, 'the :id is validated before the owner check');
  const own = await dashboard(advisor.id, owner.key);
  assert.equal(own.statusCode, 200, own.body);
  assert.equal(body(own).advisor.id, advisor.id);
  assert.ok(own.headers['ratelimit-remaining'], 'the dashboard is counted like any read');
});

test('admin: 404 when ADMIN_API_KEY is unset, 403 for a wrong key, X-Admin-Key or Bearer; API keys are not read', async (t) => {
  const off = await build(t);
  const unset = await off.inject({ url: '/v1/admin/errors', headers: { 'x-admin-key': 'anything' } });
  assert.equal(unset.statusCode, 404);
  assert.deepEqual(body(unset), { detail: 'Not found: GET /v1/admin/errors' }, 'the 404 of a path that does not exist');

  const app = await build(t, { ADMIN_API_KEY: 'operator-secret-1' });
  const adminRoutes = [...app.routePolicies].filter(([route, p]) => p.access === 'admin' && route.startsWith('GET ')).map(([route]) => route.slice(4));
  assert.ok(adminRoutes.length >= 3);
  for (const url of adminRoutes) {
    assert.equal((await app.inject(url)).statusCode, 403, url);
    assert.deepEqual(body(await app.inject({ url, headers: { 'x-admin-key': 'wrong' } })), { detail: 'Admin key required' }, url);
    assert.equal((await app.inject({ url, headers: { 'x-admin-key': 'operator-secret-1' } })).statusCode, 200, url);
    assert.equal((await app.inject({ url, headers: { authorization: 'Bearer operator-secret-1' } })).statusCode, 200, url);
    // An API key header (even an invalid one) is not what admin routes read.
    const withApiKey = await app.inject({ url, headers: { 'x-admin-key': 'operator-secret-1', 'x-api-key': 'am_bogus' } });
    assert.equal(withApiKey.statusCode, 200, url);
  }
});

test('counter: uncounted routes carry no RateLimit headers and never run out', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1' });
  const addr = { remoteAddress: '203.0.113.77' };
  assert.equal((await app.inject({ url: '/v1/ping', ...addr })).headers['ratelimit-limit'], '1');
  assert.equal((await app.inject({ url: '/meta', ...addr })).statusCode, 200);
  for (const url of ['/healthz', '/v1/attribution', '/v1/openapi.json', '/device']) {
    const res = await app.inject({ url, ...addr });
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.headers['ratelimit-limit'], undefined, url);
  }
  assert.equal((await app.inject({ url: '/v1/ping', ...addr })).statusCode, 429);
});

test('extraLimit feedback: taken only by a message the route accepted; 429 {detail, limit, resets_at} with Retry-After', async (t) => {
  const app = await build(t, { FEEDBACK_DAILY_LIMIT: '1' });
  const send = (message: string) => app.inject({ method: 'POST', url: '/v1/feedback', payload: { message }, remoteAddress: '203.0.113.78' });
  assert.equal((await send('   ')).statusCode, 400);
  const first = await send('first');
  assert.equal(first.statusCode, 200, 'the blank message did not take the one allowed');
  assert.ok(first.headers['ratelimit-limit'], 'and the call is counted like any other');
  const over = await send('second');
  assert.equal(over.statusCode, 429);
  assert.deepEqual(Object.keys(body(over)).sort(), ['detail', 'limit', 'resets_at']);
  assert.equal(body(over).limit, 1);
  assert.match(body(over).resets_at, /T00:00:00\+09:00$/);
  assert.ok(Number(over.headers['retry-after']) >= 1);
});

test('OpenAPI: every operation shows its access and cost, from the same declaration', async (t) => {
  const app = await build(t);
  const doc = body(await app.inject('/v1/openapi.json'));
  let n = 0;
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const policy = app.routePolicies.get(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
      assert.ok(policy, `${method} ${path}`);
      assert.equal(op['x-access'], policy.access, path);
      assert.equal(op['x-counter'], policy.counter, path);
      assert.equal(op['x-billed'], policy.billed, path);
      assert.equal(op['x-unit-rows'], policy.unitRows ?? undefined, path);
      assert.ok(op.description.endsWith(describePolicy(policy)), path);
      n++;
    }
  }
  assert.ok(n >= 50);
  assert.ok(!Object.values<any>(doc.paths).some((item) => Object.values<any>(item).some((op) => op['x-access'] === 'admin')));
});
