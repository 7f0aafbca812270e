// Every error a client can cause answers {"detail": string} in our words
// (issue 11, findings 12 and 13): deep JSON bodies, over-long path
// parameters, bad percent-encodings, request lines and headers over Node's
// limit (with `Connection: close`, so a keep-alive client's next request
// works), and the payment provider's and the tool server's own texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { build, body } from '../helper.ts';
import { billingApp } from '../billing/helpers.ts';
import { MAX_JSON_DEPTH, jsonDeeperThan } from '../../src/plugins/json-body.ts';

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

test('a JSON body nested deeper than the limit answers 400 on every JSON route, never 500', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  const routes = ['/v1/am/validate', '/v1/programs/batch', '/v1/exclusions/check', '/v1/feedback', '/v1/billing/checkout', '/mcp'];
  for (const url of routes) {
    for (const payload of [`{"applicant_data":{"a":${deep(20_000)}}}`, deep(MAX_JSON_DEPTH + 1), `{"a":${'{"b":'.repeat(40)}1${'}'.repeat(40)}}`]) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      assert.equal(res.statusCode, 400, `${url}: ${res.body.slice(0, 100)}`);
      assert.match(body(res).detail, /nested deeper than 32/);
    }
  }
  // At the limit the body is read as usual (then validated by the route).
  const ok = await app.inject({
    method: 'POST',
    url: '/v1/am/validate',
    payload: `{"applicant_data":{"a":${deep(MAX_JSON_DEPTH - 2)}}}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(ok.statusCode, 200, ok.body.slice(0, 200));
  // Brackets inside strings are not nesting; escaped quotes do not end a string.
  assert.equal(jsonDeeperThan(JSON.stringify({ s: `${'['.repeat(100)}\\"${'{'.repeat(100)}` }), 2), false);
  assert.equal(jsonDeeperThan(deep(3), 2), true);
});

test('an over-long path parameter (414) and a bad percent-encoding (400) answer {detail}', async (t) => {
  const app = await build(t);
  const long = await app.inject({ url: `/v1/programs/${'x'.repeat(600)}` });
  assert.equal(long.statusCode, 414);
  assert.deepEqual(body(long), { detail: 'A path parameter is too long' });
  for (const url of ['/v1/programs/%E0%A4%A', '/v1/programs/%ZZ', '/v1/laws/%']) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(body(res), { detail: 'The URL is not validly percent-encoded' });
  }
});

async function listening(t: { after(fn: () => unknown): void }) {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

function get(agent: http.Agent, port: number, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
}

test("a URL over Node's header limit answers 431 {detail} with Connection: close, and the keep-alive client's next request works", async (t) => {
  const { port } = await listening(t);
  // A raw socket: the whole answer, then an orderly close (FIN), not a reset.
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  let reset: Error | null = null;
  socket.on('data', (c) => (raw += c));
  socket.on('error', (err) => (reset = err));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`GET /v1/programs/search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  await new Promise((resolve) => socket.once('end', resolve));
  socket.destroy();
  assert.equal(reset, null, 'no ECONNRESET');
  const [head, payload] = raw.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 431 /);
  assert.match(head, /\r\nConnection: close(\r\n|$)/i);
  assert.deepEqual(JSON.parse(payload), { detail: 'The request line or headers are too large' });

  // A keep-alive agent (one socket): the big request, then GET /healthz on the same agent.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  for (let i = 0; i < 3; i++) {
    const big = await get(agent, port, `/v1/programs/search?q=${'a'.repeat(20_000)}`);
    assert.equal(big.status, 431);
    assert.equal(big.headers.connection, 'close');
    assert.equal(typeof JSON.parse(big.body).detail, 'string');
    const health = await get(agent, port, '/healthz');
    assert.equal(health.status, 200, 'the next request on the keep-alive agent is answered');
  }
  // Headers over the limit, and a request Node cannot parse, answer the same way.
  for (const request of [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 'NOT HTTP AT ALL\r\n\r\n']) {
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    s.on('data', (c) => (text += c));
    s.on('error', () => undefined);
    await new Promise((resolve) => s.once('connect', resolve));
    s.write(request);
    await new Promise((resolve) => s.once('close', resolve));
    assert.match(text, /^HTTP\/1\.1 4\d\d [^\r]*\r\n/);
    assert.match(text, /Connection: close/i);
    assert.equal(typeof JSON.parse(text.split('\r\n\r\n')[1]).detail, 'string');
  }
});

test("the payment provider's error text is not forwarded: our words, naming the caller's field", async (t) => {
  const { app, fake } = await billingApp(t);
  const customer = fake.createCustomer();
  const { generateApiKey } = await import('../../src/access/keys.ts');
  const key = generateApiKey();
  await app.state.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: customer.id, subscriptionId: 'sub_x' });
  fake.failNext(1, {
    status: 400,
    pathPrefix: '/v1/billing_portal',
    error: { type: 'invalid_request_error', param: 'return_url', message: 'Not a valid URL (acct_1Internal, livemode config portal_cfg_9)' },
  });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/billing/portal',
    headers: { 'x-api-key': key.key },
    payload: { customer_id: customer.id, return_url: 'https://example.com/back' },
  });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(body(res), { detail: 'The payment provider refused the value of return_url' });
  // A 400 on something that is not the caller's (our price id, our configuration) is our failure: 503, logged only.
  fake.failNext(1, {
    status: 400,
    pathPrefix: '/v1/checkout',
    error: { type: 'invalid_request_error', param: 'line_items[0][price]', message: 'No such price: price_internal_77' },
  });
  const checkout = await app.inject({
    method: 'POST',
    url: '/v1/billing/checkout',
    payload: { success_url: 'https://example.com/ok', cancel_url: 'https://example.com/no' },
  });
  assert.equal(checkout.statusCode, 503);
  assert.doesNotMatch(checkout.body, /price_internal|No such/);
});
