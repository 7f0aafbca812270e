// One retry policy, against a real local HTTP server that fails on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APIConnectionError, APIUserAbortError, JpSupportClient, RateLimitError, ServerError, backoffDelay } from '../src/index.ts';
import { json, recordingSleep, scriptedServer } from './helpers.ts';

const OK = { ok: true };

test('GET: retried on 500 and 503 with growing backoff, then succeeds (3 attempts)', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => {
    if (n === 0) return json(res, 500, { detail: 'boom' });
    if (n === 1) return json(res, 503, { detail: 'unavailable' });
    json(res, 200, OK);
  });
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  assert.deepEqual(await client.get('/v1/ping'), OK);
  assert.equal(srv.requests.length, 3);
  assert.equal(delays.length, 2);
  assert.ok(delays[0] < delays[1], `backoff grows: ${delays}`);
  assert.ok(delays[0] >= 375 && delays[0] <= 500, `first delay 500 ms minus ≤25 % jitter: ${delays[0]}`);
  assert.ok(delays[1] >= 750 && delays[1] <= 1000, `second delay 1 s minus ≤25 % jitter: ${delays[1]}`);
});

test('GET: at most 3 attempts by default, then the last ServerError', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => json(res, 502, { detail: `fail ${n}` }, { 'x-request-id': `rid-${n}` }));
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  const err = await client.get('/v1/ping').then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ServerError);
  assert.equal(err.status, 502);
  assert.equal(err.detail, 'fail 2');
  assert.equal(err.requestId, 'rid-2');
  assert.equal(srv.requests.length, 3);
  assert.equal(delays.length, 2);
});

test('maxRetries bounds the attempts (client option and per request)', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 500, { detail: 'x' }));
  const { sleep } = recordingSleep();
  const none = new JpSupportClient({ baseUrl: srv.baseUrl, sleep, maxRetries: 0 });
  await assert.rejects(none.get('/a'), ServerError);
  assert.equal(srv.requests.length, 1);
  const five = new JpSupportClient({ baseUrl: srv.baseUrl, sleep, maxRetries: 5 });
  await assert.rejects(five.get('/b'), ServerError);
  assert.equal(srv.requests.length, 1 + 6);
  await assert.rejects(five.get('/c', { maxRetries: 1 }), ServerError);
  assert.equal(srv.requests.length, 7 + 2);
});

test('backoff: 500 ms, 1 s, 2 s, 4 s, then capped at 8 s; jitter at most 25 %', () => {
  const none = () => 0;
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 10].map((a) => backoffDelay(a, none)),
    [500, 1000, 2000, 4000, 8000, 8000, 8000],
  );
  assert.equal(
    backoffDelay(0, () => 0.999999),
    375,
  );
  assert.equal(
    backoffDelay(10, () => 0.999999),
    6000,
  );
});

test('429: waits the Retry-After seconds, then retries', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => {
    if (n === 0) return json(res, 429, { detail: 'slow down' }, { 'retry-after': '2' });
    json(res, 200, OK);
  });
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  assert.deepEqual(await client.get('/v1/ping'), OK);
  assert.deepEqual(delays, [2000]);
  assert.equal(srv.requests.length, 2);
});

test('429 without Retry-After uses the backoff', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => (n === 0 ? json(res, 429, { detail: 'x' }) : json(res, 200, OK)));
  const { delays, sleep } = recordingSleep();
  await new JpSupportClient({ baseUrl: srv.baseUrl, sleep }).get('/x');
  assert.equal(delays.length, 1);
  assert.ok(delays[0] >= 375 && delays[0] <= 500);
});

test('429 whose Retry-After exceeds 60 s is reported at once, with retryAfter, limit and resetsAt', async (t) => {
  const srv = await scriptedServer(t, (_req, res) =>
    json(res, 429, { detail: 'Anonymous daily limit of 100 reached', limit: 100, resets_at: '2026-01-02T00:00:00+09:00' }, { 'retry-after': '3600' }),
  );
  const { delays, sleep } = recordingSleep();
  const err = await new JpSupportClient({ baseUrl: srv.baseUrl, sleep }).get('/v1/ping').catch((e: unknown) => e);
  assert.ok(err instanceof RateLimitError);
  assert.equal(err.retryAfter, 3600);
  assert.equal(err.limit, 100);
  assert.equal(err.resetsAt, '2026-01-02T00:00:00+09:00');
  assert.equal(srv.requests.length, 1);
  assert.deepEqual(delays, []);
});

test('a caller who accepts longer waits raises maxRetryAfterSeconds', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => (n === 0 ? json(res, 429, { detail: 'x' }, { 'retry-after': '120' }) : json(res, 200, OK)));
  const { delays, sleep } = recordingSleep();
  await new JpSupportClient({ baseUrl: srv.baseUrl, sleep, maxRetryAfterSeconds: 300 }).get('/x');
  assert.deepEqual(delays, [120_000]);
});

test('non-idempotent POST: not retried on 5xx, retried on 429', async (t) => {
  const srv = await scriptedServer(t, (req, res, n) => {
    if (req.url === '/v1/feedback' && n === 0) return json(res, 500, { detail: 'boom' });
    if (req.url === '/v1/billing/checkout' && n === 1) return json(res, 429, { detail: 'later' }, { 'retry-after': '1' });
    json(res, 200, { url: 'https://pay.example/x', session_id: 'cs_1' });
  });
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  await assert.rejects(client.feedback({ message: 'hello' }), ServerError);
  assert.equal(srv.requests.length, 1);
  const out = await client.billing.checkout({ success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no' });
  assert.equal(out.session_id, 'cs_1');
  assert.equal(srv.requests.length, 3);
  assert.deepEqual(delays, [1000]);
  assert.equal(srv.requests[2].method, 'POST');
  assert.deepEqual(JSON.parse(srv.requests[2].body), { success_url: 'https://a.example/ok', cancel_url: 'https://a.example/no' });
});

test('non-idempotent POST is retried on 5xx when the caller passes retryNonIdempotent', async (t) => {
  const srv = await scriptedServer(t, (_req, res, n) => (n === 0 ? json(res, 503, { detail: 'x' }) : json(res, 200, { received: true, feedback_id: 7 })));
  const { sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  const out = await client.feedback({ message: 'hi', rating: 5 }, { retryNonIdempotent: true });
  assert.equal(out.feedback_id, 7);
  assert.equal(srv.requests.length, 2);
});

test('read-only POSTs (batch, exclusion check, validate) are retried like GETs', async (t) => {
  const srv = await scriptedServer(t, (req, res, n) => (n % 2 === 0 ? json(res, 500, { detail: 'x' }) : json(res, 200, { path: req.url })));
  const { sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  await client.programs.batch({ unified_ids: ['a'] });
  await client.exclusions.check({ program_ids: ['a', 'b'] });
  await client.am.validate({ applicant_data: { employees: 3 } });
  await client.request('POST', '/v1/anything', { body: {}, idempotent: true });
  assert.deepEqual(
    srv.requests.map((r) => r.url),
    [
      '/v1/programs/batch',
      '/v1/programs/batch',
      '/v1/exclusions/check',
      '/v1/exclusions/check',
      '/v1/am/validate',
      '/v1/am/validate',
      '/v1/anything',
      '/v1/anything',
    ],
  );
});

test('dropped connections: GET retried, non-idempotent POST not', async (t) => {
  const srv = await scriptedServer(t, (req, res, n) => {
    if (req.method === 'POST' || n < 2) return void res.socket?.destroy();
    json(res, 200, OK);
  });
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep });
  assert.deepEqual(await client.get('/v1/ping'), OK);
  assert.equal(srv.requests.length, 3);
  assert.equal(delays.length, 2);
  const err = await client.feedback({ message: 'x' }).catch((e: unknown) => e);
  assert.ok(err instanceof APIConnectionError, String(err));
  assert.equal(err.status, undefined);
  assert.equal(srv.requests.length, 4);
});

test('connection refused: APIConnectionError after every allowed attempt', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 200, OK));
  await srv.close();
  const { delays, sleep } = recordingSleep();
  const err = await new JpSupportClient({ baseUrl: srv.baseUrl, sleep }).get('/v1/ping').catch((e: unknown) => e);
  assert.ok(err instanceof APIConnectionError);
  assert.match(err.message, /Connection error/);
  assert.equal(delays.length, 2);
});

test('a caller abort during the wait between attempts ends the loop with APIUserAbortError', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 500, { detail: 'x' }));
  const controller = new AbortController();
  const client = new JpSupportClient({
    baseUrl: srv.baseUrl,
    sleep: async () => controller.abort(new Error('user gave up')),
  });
  await assert.rejects(client.get('/v1/ping', { signal: controller.signal }), APIUserAbortError);
  assert.equal(srv.requests.length, 1);
});
