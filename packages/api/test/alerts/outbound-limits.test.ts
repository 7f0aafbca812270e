// What one customer's webhook receivers can do to the outbound worker, and
// what they cannot (issue 24, M1), against hostile receivers in a process of
// their own (test/fakes/slow-receivers.ts): an attempt ends at its deadline
// however the receiver trickles; a body streamed forever holds no socket;
// deliveries are claimed fairly (another key's delivery goes out in the same
// pass as a flood's first); mail does not wait behind webhooks; test
// deliveries are limited. Everything is counted (passes, requests, sockets),
// never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { startSlowReceivers } from '../fakes/slow-receivers.ts';
import { startSmtpSink } from './receivers.ts';

const ENV = { OUTBOUND_ALLOW_PRIVATE: 'true', OUTBOUND_INTERVAL_SECONDS: '0', WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_RETRY_BASE_SECONDS: '3600' };

async function keyOf(app: FastifyInstance) {
  const k = generateApiKey();
  const record = await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  return { headers: { 'x-api-key': k.key }, id: record.id };
}

async function endpoint(app: FastifyInstance, headers: Record<string, string>, url: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/me/webhooks', headers, payload: { url, events: ['program.created'] } });
  assert.equal(res.statusCode, 201, res.body);
  return body(res).id;
}

/** Queue `n` deliveries to an endpoint as a fan-out would (they are not tests: no limit applies). */
async function flood(app: FastifyInstance, endpointId: string, n: number, tag: string) {
  await app.state.webhookEndpoints.queue(
    Array.from({ length: n }, (_, i) => ({
      endpointId,
      source: `${tag}:${i}`,
      eventType: 'program.created',
      payload: (id: string) => JSON.stringify({ id, type: 'program.created' }),
    })),
  );
}

test('an attempt ends at its deadline however slowly the receiver trickles its headers; the endpoint waits for a later pass', {
  timeout: 60_000,
}, async (t) => {
  const receivers = await startSlowReceivers(t);
  const app = await build(t, ENV);
  const key = await keyOf(app);
  const id = await endpoint(app, key.headers, `${receivers.base}/trickle`);
  await flood(app, id, 3, 'slow');
  const report = await app.outbound.worker.tick();
  assert.deepEqual([report.delivered, report.failed, report.released], [0, 1, 2], 'one attempt, cut at the deadline; the other two given back');
  const deliveries = body(await app.inject({ url: `/v1/me/webhooks/${id}/deliveries`, headers: key.headers })).results;
  const attempted = deliveries.filter((d: { attempts: number }) => d.attempts === 1);
  assert.equal(attempted.length, 1);
  // Cut at what was left of the pass's 1 s deadline when the attempt began (a millisecond or two may have gone).
  const bound = Number(/^no answer within (\d+) ms$/.exec(attempted[0].last_error)?.[1]);
  assert.ok(bound > 500 && bound <= 1000, attempted[0].last_error);
  assert.ok(
    deliveries.every((d: { status: string }) => d.status === 'pending'),
    'retried later',
  );
  const seen = await receivers.waitFor((s) => s.open === 0);
  assert.equal(seen.paths.length, 1, 'the receiver saw one request, and holds no socket now');
});

test('a receiver that answers 200 and streams its body forever holds no socket: the answer is dropped once its status is known', {
  timeout: 60_000,
}, async (t) => {
  const receivers = await startSlowReceivers(t);
  const app = await build(t, ENV);
  const key = await keyOf(app);
  const id = await endpoint(app, key.headers, `${receivers.base}/stream`);
  await flood(app, id, 30, 'stream');
  let delivered = 0;
  for (let pass = 0; pass < 3 && delivered < 30; pass++) delivered += (await app.outbound.worker.tick()).delivered;
  assert.equal(delivered, 30, 'every delivery counts as delivered (2xx)');
  const seen = await receivers.waitFor((s) => s.open === 0);
  assert.equal(seen.accepted, 30);
});

test("claims are fair: another key's one delivery goes out in the same pass as the first of a flood of 400", { timeout: 60_000 }, async (t) => {
  const receivers = await startSlowReceivers(t);
  const app = await build(t, ENV);
  const attacker = await keyOf(app);
  const victim = await keyOf(app);
  const floods = [];
  for (let i = 0; i < 4; i++) floods.push(await endpoint(app, attacker.headers, `${receivers.base}/ok/attacker-${i}`));
  for (const [i, id] of floods.entries()) await flood(app, id, 100, `flood-${i}`);
  const victimEndpoint = await endpoint(app, victim.headers, `${receivers.base}/ok/victim`);
  await flood(app, victimEndpoint, 1, 'victim'); // queued last
  const first = await app.outbound.worker.tick();
  assert.equal(first.delivered, 20, 'one pass of 20');
  const paths = (await receivers.stats()).paths;
  assert.ok(paths.includes('/ok/victim'), `the victim's delivery is in the first pass: ${paths.slice(0, 6).join(', ')} …`);
  const perEndpoint = new Map<string, number>();
  for (const p of paths) perEndpoint.set(p, (perEndpoint.get(p) ?? 0) + 1);
  assert.deepEqual(
    [...perEndpoint.values()].sort((a, b) => a - b),
    [1, 4, 5, 5, 5],
    "the flood's four endpoints take the pass's other places in turn",
  );
});

test('mail does not wait behind webhooks: a tick sends a confirmation while the last webhook pass is still at a slow receiver', {
  timeout: 60_000,
}, async (t) => {
  const receivers = await startSlowReceivers(t);
  const smtp = await startSmtpSink(t);
  const app = await build(t, { ...ENV, WEBHOOK_TIMEOUT_SECONDS: '20', SMTP_URL: smtp.url });
  const key = await keyOf(app);
  const id = await endpoint(app, key.headers, `${receivers.base}/trickle`);
  await flood(app, id, 1, 'slow');
  const slow = app.outbound.worker.tick();
  await receivers.waitFor((s) => s.paths.length === 1); // the webhook pass is at the receiver
  const signup = await app.inject({
    method: 'POST',
    url: '/v1/subscribers',
    payload: { email: 'victim@example.jp', search: { name: '東京都', query: { prefecture: '東京都' } } },
  });
  assert.equal(signup.statusCode, 202, signup.body);
  const next = await app.outbound.worker.tick();
  assert.deepEqual([next.mailed, next.busy], [1, ['webhooks']], 'the mail lane ran; the webhook lane was still busy');
  await smtp.waitFor(1);
  await app.outbound.worker.stop(); // a stop aborts the slow attempt at once: its delivery is given back
  const report = await slow;
  assert.deepEqual([report.failed, report.released], [0, 1]);
});

test('test deliveries: one pending at a time per endpoint, and WEBHOOK_TEST_DAILY_LIMIT test requests per key per day', { timeout: 60_000 }, async (t) => {
  const receivers = await startSlowReceivers(t);
  const app = await build(t, { ...ENV, WEBHOOK_TEST_DAILY_LIMIT: '4' });
  const key = await keyOf(app);
  const id = await endpoint(app, key.headers, `${receivers.base}/ok`);
  const testOnce = () => app.inject({ method: 'POST', url: `/v1/me/webhooks/${id}/test`, headers: key.headers });
  assert.equal((await testOnce()).statusCode, 202);
  const pending = await testOnce();
  assert.equal(pending.statusCode, 409, pending.body);
  assert.match(body(pending).detail, /still pending/);
  assert.equal((await app.outbound.worker.tick()).delivered, 1);
  assert.equal((await testOnce()).statusCode, 202, 'once delivered, another test may go');
  assert.equal((await app.outbound.worker.tick()).delivered, 1);
  assert.equal((await testOnce()).statusCode, 202);
  assert.equal((await app.outbound.worker.tick()).delivered, 1);
  const limited = await testOnce();
  assert.equal(limited.statusCode, 429, limited.body);
  assert.match(body(limited).detail, /4 webhook test requests per day/);
  const deliveries = body(await app.inject({ url: `/v1/me/webhooks/${id}/deliveries`, headers: key.headers })).results;
  assert.equal(deliveries.length, 3, 'nothing queued by a refused test');
});
