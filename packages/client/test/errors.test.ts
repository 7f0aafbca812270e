// Every error class, built from real HTTP answers: the API server itself for
// the statuses it produces on its own, a scripted server for the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  CapReachedError,
  JpSupportClient,
  JpSupportError,
  NotFoundError,
  RateLimitError,
  ServerError,
  fetchTransport,
  injectTransport,
} from '../src/index.ts';
import { build } from '../../api/test/helper.ts';
import { json, recordingSleep, scriptedServer } from './helpers.ts';

const catchErr = (p: Promise<unknown>) =>
  p.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );

test('the API server: 404, 400, 422, 401 and 429 map to their classes with detail and request id', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '6' });
  const { sleep } = recordingSleep();
  const client = new JpSupportClient({ transport: injectTransport(app), sleep });

  const notFound = await catchErr(client.programs.get('NO-SUCH-PROGRAM', {}, { requestId: 'test-404' }));
  assert.ok(notFound instanceof NotFoundError);
  assert.equal(notFound.status, 404);
  assert.match(notFound.detail, /NO-SUCH-PROGRAM/);
  assert.equal(notFound.requestId, 'test-404');
  assert.deepEqual(notFound.body, { detail: notFound.detail });

  const bad = await catchErr(client.programs.search({ limit: 1000 }));
  assert.ok(bad instanceof BadRequestError);
  assert.equal(bad.status, 400);
  assert.match(bad.detail, /limit/);
  assert.equal(typeof bad.requestId, 'string');

  const unprocessable = await catchErr(client.programs.batch({ unified_ids: [] }));
  assert.ok(unprocessable instanceof BadRequestError);
  assert.equal(unprocessable.status, 422);

  const badKey = client.withOptions({ apiKey: 'am_thisKeyDoesNotExist0000000000000000' });
  const unauth = await catchErr(badKey.ping());
  assert.ok(unauth instanceof AuthenticationError);
  assert.equal(unauth.status, 401);
  const bearer = await catchErr(badKey.withOptions({ authScheme: 'bearer' }).ping());
  assert.ok(bearer instanceof AuthenticationError);

  let limited: unknown;
  for (let i = 0; i < 10 && !limited; i++)
    limited = await client.meta().then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(limited instanceof RateLimitError, String(limited));
  assert.equal(limited.status, 429);
  assert.equal(limited.limit, 6);
  assert.equal(typeof limited.retryAfter, 'number');
  assert.ok((limited.retryAfter ?? -1) > 0);
  assert.match(limited.resetsAt ?? '', /\+09:00$/);
});

test('402 (cap reached) carries capYen and spentYen; 403, 5xx, 409 and non-JSON bodies', async (t) => {
  const srv = await scriptedServer(t, (req, res) => {
    switch (req.url) {
      case '/402':
        return json(res, 402, { detail: 'Monthly spend cap of 300 yen reached', cap_yen: 300, spent_yen: 300 }, { 'x-request-id': 'r402' });
      case '/402-unpaid':
        return json(res, 402, { detail: 'Checkout session is not paid' });
      case '/403':
        return json(res, 403, { detail: 'Forbidden' });
      case '/409':
        return json(res, 409, { detail: 'A key was already issued for this subscription' });
      case '/500':
        return json(res, 500, { detail: 'Internal server error' });
      default:
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('Bad gateway');
    }
  });
  const { sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep, maxRetries: 0 });

  const cap = await catchErr(client.get('/402'));
  assert.ok(cap instanceof CapReachedError);
  assert.equal(cap.capYen, 300);
  assert.equal(cap.spentYen, 300);
  assert.equal(cap.requestId, 'r402');
  assert.equal(cap.message, '402 Monthly spend cap of 300 yen reached');

  const unpaid = await catchErr(client.get('/402-unpaid'));
  assert.ok(unpaid instanceof CapReachedError);
  assert.equal(unpaid.capYen, null);

  const forbidden = await catchErr(client.get('/403'));
  assert.ok(forbidden instanceof AuthenticationError);
  assert.equal(forbidden.status, 403);

  const conflict = await catchErr(client.get('/409'));
  assert.ok(conflict instanceof APIError);
  assert.equal(conflict.constructor, APIError);
  assert.equal(conflict.status, 409);

  const server = await catchErr(client.get('/500'));
  assert.ok(server instanceof ServerError);
  assert.equal(server.detail, 'Internal server error');

  const gateway = await catchErr(client.get('/html'));
  assert.ok(gateway instanceof ServerError);
  assert.equal(gateway.status, 502);
  assert.equal(gateway.detail, 'Bad gateway');
  assert.equal(gateway.headers['content-type'], 'text/html');

  for (const e of [cap, unpaid, forbidden, conflict, server, gateway]) assert.ok(e instanceof JpSupportError);
});

test('options are validated, and the client refuses paths that would escape their segment', async () => {
  assert.throws(() => new JpSupportClient({}), JpSupportError);
  assert.throws(() => new JpSupportClient({ baseUrl: 'not a url' }), JpSupportError);
  assert.throws(() => new JpSupportClient({ baseUrl: 'ftp://x' }), JpSupportError);
  assert.throws(() => new JpSupportClient({ baseUrl: 'http://x', timeoutMs: -1 }), JpSupportError);
  const client = new JpSupportClient({ baseUrl: 'http://127.0.0.1:9', transport: fetchTransport(fetch) });
  await assert.rejects(client.laws.get('..'), /Invalid path parameter/);
  await assert.rejects(client.programs.get(''), /Invalid path parameter/);
  await assert.rejects(client.request('GET', '/v1/laws/%2E%2E/x'), /'\.\.' segments/);
  await assert.rejects(client.request('GET', 'v1/ping'), /must start with/);
});
