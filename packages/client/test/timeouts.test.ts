// Per-attempt timeout and caller abort, against servers that never answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { APITimeoutError, APIUserAbortError, JpSupportClient, injectTransport } from '../src/index.ts';
import { recordingSleep, scriptedServer } from './helpers.ts';

test('a server that never answers: APITimeoutError after timeoutMs, no status', async (t) => {
  const srv = await scriptedServer(t, () => {});
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, timeoutMs: 50, maxRetries: 0 });
  const err = await client.get('/v1/ping').catch((e: unknown) => e);
  assert.ok(err instanceof APITimeoutError, String(err));
  assert.equal(err.status, undefined);
  assert.match(err.message, /timed out after 50 ms/);
  assert.ok(srv.requests.length <= 1, 'no retry with maxRetries 0');
});

test('the timeout is per attempt: each retry gets a fresh one, then the timeout is reported', async (t) => {
  const srv = await scriptedServer(t, () => {});
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, timeoutMs: 30, sleep });
  await assert.rejects(client.get('/v1/ping'), APITimeoutError);
  // Two waits between three attempts (how many reached the server before their timeout depends on load).
  assert.equal(delays.length, 2);
  assert.ok(srv.requests.length <= 3);
});

test('the per-request timeout overrides the client one', async (t) => {
  const srv = await scriptedServer(t, () => {});
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, timeoutMs: 60_000, maxRetries: 0 });
  const err = await client.get('/x', { timeoutMs: 20 }).catch((e: unknown) => e);
  assert.ok(err instanceof APITimeoutError);
  assert.match(err.message, /20 ms/);
});

test('caller abort while waiting for the answer: APIUserAbortError, never retried', async (t) => {
  const controller = new AbortController();
  const srv = await scriptedServer(t, () => controller.abort());
  const { delays, sleep } = recordingSleep();
  const client = new JpSupportClient({ baseUrl: srv.baseUrl, sleep, timeoutMs: 60_000 });
  const err = await client.get('/v1/ping', { signal: controller.signal }).catch((e: unknown) => e);
  assert.ok(err instanceof APIUserAbortError, String(err));
  assert.equal(err.status, undefined);
  assert.equal(srv.requests.length, 1);
  assert.deepEqual(delays, []);
});

test('an already-aborted signal sends nothing', async (t) => {
  const srv = await scriptedServer(t, () => {});
  const client = new JpSupportClient({ baseUrl: srv.baseUrl });
  await assert.rejects(client.get('/v1/ping', { signal: AbortSignal.abort() }), APIUserAbortError);
  assert.equal(srv.requests.length, 0);
});

test('inject transport: timeout and abort work the same in-process', async (t) => {
  const app = Fastify();
  let calls = 0;
  app.get('/hang', () => {
    calls++;
    return new Promise(() => {});
  });
  await app.ready();
  t.after(() => app.close());
  const client = new JpSupportClient({ transport: injectTransport(app), timeoutMs: 30, maxRetries: 0 });
  await assert.rejects(client.get('/hang'), APITimeoutError);
  const controller = new AbortController();
  const pending = client.get('/hang', { signal: controller.signal, timeoutMs: 60_000 });
  controller.abort();
  await assert.rejects(pending, APIUserAbortError);
  assert.ok(calls <= 2);
});
