// The process model of `npm start` (process/): several workers on one SQLite
// file keep the limits exact and /metrics sums them; a crashed worker is
// replaced; the connection timeouts cut a half-sent request; one SIGTERM
// stops the server gracefully — requests in flight get complete answers,
// their usage is in the store and their meter events reach Stripe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { once } from 'node:events';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import type { StateStore } from '../../src/state/store.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { privateDataDir, request, startServer, type Ctx, type ServerProcess } from './servers.ts';

const ADMIN = 'admin-key-for-the-process-faults-0123456789';

async function sqliteState(t: Ctx): Promise<{ dataDir: string; store: StateStore }> {
  const dataDir = await privateDataDir(t);
  const store = openSqliteStore(path.join(dataDir, 'state.sqlite'));
  await store.migrate();
  t.after(() => store.close());
  return { dataDir, store };
}

/** Process ids that wrote a request log line. */
function servingPids(server: ServerProcess): Set<number> {
  const pids = new Set<number>();
  for (const line of server.output().split('\n')) {
    if (!line.includes('"msg":"request"')) continue;
    const pid = /"pid":(\d+)/.exec(line)?.[1];
    if (pid) pids.add(Number(pid));
  }
  return pids;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A raw connection that sends `head` now; `rest()` sends more; `answer` is everything the server wrote until it closed. */
function rawRequest(url: string, head: string): { rest(data: string): void; answer: Promise<{ text: string; ms: number }> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const started = Date.now();
  socket.write(head);
  let text = '';
  socket.on('data', (c) => (text += String(c)));
  const answer = new Promise<{ text: string; ms: number }>((resolve, reject) => {
    socket.once('close', () => resolve({ text, ms: Date.now() - started }));
    socket.once('error', reject);
  });
  return { rest: (data) => void socket.write(data), answer };
}

test('WEB_CONCURRENCY=2 on SQLite: 1,000 concurrent calls from one address and one free key admit exactly the limit; /metrics sums both workers', {
  timeout: 300_000,
}, async (t) => {
  const CALLS = 1000;
  const LIMIT = 300;
  const { dataDir, store } = await sqliteState(t);
  const free = generateApiKey();
  await store.keys.create({ keyHash: free.hash, prefix: free.prefix, tier: 'free' });
  const server = await startServer(t, {
    DATA_DIR: dataDir,
    WEB_CONCURRENCY: '2',
    TRUST_PROXY: '1',
    ADMIN_API_KEY: ADMIN,
    ANON_DAILY_LIMIT: String(LIMIT),
    FREE_DAILY_LIMIT: String(LIMIT),
  });
  await until(() => (server.output().match(/Server listening at/g) ?? []).length === 2, 60_000, 'both workers to listen');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  t.after(() => agent.destroy());

  const burst = async (headers: Record<string, string>) => {
    const statuses = await Promise.all(
      Array.from({ length: CALLS }, async () => (await request(agent, `${server.url}/v1/programs/search?limit=1`, { headers })).status),
    );
    return {
      ok: statuses.filter((s) => s === 200).length,
      limited: statuses.filter((s) => s === 429).length,
      other: statuses.filter((s) => s !== 200 && s !== 429),
    };
  };
  assert.deepEqual(await burst({ 'x-forwarded-for': '203.0.113.77' }), { ok: LIMIT, limited: CALLS - LIMIT, other: [] }, 'anonymous: exactly the limit');
  assert.deepEqual(await burst({ 'x-api-key': free.key }), { ok: LIMIT, limited: CALLS - LIMIT, other: [] }, 'free key: exactly the limit');
  assert.equal(servingPids(server).size, 2, 'both workers served');

  // The admin key's /metrics is the sum over the workers, whichever answers it.
  for (let i = 0; i < 4; i++) {
    const metrics = await request(new http.Agent(), `${server.url}/metrics`, { headers: { 'x-admin-key': ADMIN } });
    assert.equal(metrics.status, 200, metrics.body);
    const count = (status: string) =>
      Number(
        metrics.body
          .split('\n')
          .find((l) => l.startsWith('http_requests_total{') && l.includes('route="/v1/programs/search"') && l.includes(`status="${status}"`))
          ?.split(' ')
          .at(-1),
      );
    assert.equal(count('200'), 2 * LIMIT, `200s of both workers: ${count('200')}`);
    assert.equal(count('429'), 2 * (CALLS - LIMIT));
  }
});

test('a crashed worker is replaced and the port keeps answering', { timeout: 120_000 }, async (t) => {
  const { dataDir } = await sqliteState(t);
  const server = await startServer(t, { DATA_DIR: dataDir, WEB_CONCURRENCY: '2' });
  await until(() => (server.output().match(/Server listening at/g) ?? []).length === 2, 60_000, 'both workers to listen');
  const pids = [...server.output().matchAll(/"pid":(\d+)[^\n]*Server listening at/g)].map((m) => Number(m[1]));
  process.kill(pids[0], 'SIGKILL');
  await until(() => (server.output().match(/Server listening at/g) ?? []).length === 3, 60_000, 'a replacement worker');
  assert.match(server.output(), new RegExp(`worker ${pids[0]} exited \\(SIGKILL\\); starting a replacement`));
  for (let i = 0; i < 10; i++) assert.equal((await request(new http.Agent(), `${server.url}/healthz`)).status, 200);
  await server.kill('SIGTERM');
  assert.equal(server.child.exitCode, 0, server.output().slice(-1000));
});

test('timeouts: a half-sent body and half-sent headers are answered 408 {detail} and closed; an idle connection is closed', { timeout: 120_000 }, async (t) => {
  const { dataDir } = await sqliteState(t);
  const server = await startServer(t, {
    DATA_DIR: dataDir,
    WEB_CONCURRENCY: '1',
    REQUEST_TIMEOUT_SECONDS: '1',
    HEADERS_TIMEOUT_SECONDS: '1',
    KEEP_ALIVE_TIMEOUT_SECONDS: '1',
  });
  // Before the timeouts existed such a connection stayed open for minutes; 10 s is 8× the bound of 1.25 s.
  const within = async (pending: Promise<{ text: string; ms: number }>, what: string) => {
    const timer = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still open after 10 s`)), 10_000).unref());
    return Promise.race([pending, timer]);
  };

  const body = rawRequest(
    server.url,
    'POST /v1/programs/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"unified_ids":[',
  );
  const cut = await within(body.answer, 'half-sent body');
  assert.match(cut.text, /^HTTP\/1\.1 408 /);
  assert.match(cut.text, /\r\nConnection: close\r\n/i);
  assert.equal(JSON.parse(cut.text.slice(cut.text.indexOf('\r\n\r\n') + 4)).detail, 'The request was not received in time');

  const headers = rawRequest(server.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  const cutHeaders = await within(headers.answer, 'half-sent headers');
  assert.match(cutHeaders.text, /^HTTP\/1\.1 408 /);

  const idle = rawRequest(server.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  const closed = await within(idle.answer, 'idle keep-alive connection');
  assert.match(closed.text, /^HTTP\/1\.1 200 /, 'answered, then closed when idle');
  t.diagnostic(`cut after ${cut.ms} ms (body), ${cutHeaders.ms} ms (headers); idle closed after ${closed.ms} ms`);
});

for (const [workers, signals] of [
  ['1', 1],
  ['2', 2],
] as const) {
  const what = signals === 1 ? 'one SIGTERM' : 'SIGTERM twice (the second changes nothing)';
  test(`${what} under load (WEB_CONCURRENCY=${workers}): in-flight requests answered in full, their usage stored and billed, exit 0`, {
    timeout: 180_000,
  }, async (t) => {
    const { dataDir, store } = await sqliteState(t);
    const fake = await startFakeStripe(t);
    const key = generateApiKey();
    const record = await store.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: 'cus_term', subscriptionId: 'sub_term' });
    // No background flush: the meter events reach Stripe through the last flush of the shutdown.
    const server = await startServer(t, { DATA_DIR: dataDir, WEB_CONCURRENCY: workers, ...fake.env({ STRIPE_METER_FLUSH_SECONDS: '0' }) });
    if (workers === '2') await until(() => (server.output().match(/Server listening at/g) ?? []).length === 2, 60_000, 'both workers to listen');

    // A request in flight across the signal: its body arrives slowly.
    const ids = JSON.stringify({ unified_ids: ['does-not-exist-1', 'does-not-exist-2'] });
    const slow = rawRequest(
      server.url,
      `POST /v1/programs/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(ids)}\r\n\r\n${ids.slice(0, 10)}`,
    );

    // Random load on keep-alive connections.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    t.after(() => agent.destroy());
    let answered = 0;
    let unanswered = 0;
    let stop = false;
    const bad: string[] = [];
    const load = Promise.all(
      Array.from({ length: 16 }, async (_, loop) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await request(agent, `${server.url}/v1/programs/search?limit=${1 + ((loop + i) % 5)}&offset=${(loop * 13 + i) % 40}`, {
              headers: { 'x-api-key': key.key },
            });
            if (res.status === 200) {
              JSON.parse(res.body); // complete
              answered++;
            } else bad.push(`${res.status} ${res.body.slice(0, 120)}`);
          } catch {
            // Refused or reset after the listener closed: never reached a handler.
            unanswered++;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      }),
    );
    await until(() => answered >= 200, 60_000, 'load');
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    if (signals === 2) {
      await new Promise((r) => setTimeout(r, 100));
      server.child.kill('SIGTERM');
    }
    await new Promise((r) => setTimeout(r, 500));
    slow.rest(ids.slice(10));
    const exited = once(server.child, 'exit');
    const slowAnswer = await slow.answer;
    await exited;
    stop = true;
    await load;

    assert.equal(server.child.exitCode, 0, `exit 0 after ${what}: ${server.output().slice(-1500)}`);
    assert.deepEqual(bad, [], 'no error answers during the shutdown');
    assert.match(slowAnswer.text, /^HTTP\/1\.1 200 /, slowAnswer.text.slice(0, 300));
    assert.match(slowAnswer.text, /\r\nconnection: close\r\n/i);
    assert.deepEqual(JSON.parse(slowAnswer.text.slice(slowAnswer.text.indexOf('\r\n\r\n') + 4)).not_found, ['does-not-exist-1', 'does-not-exist-2']);

    const summary = await store.usage.summary(record.id, jstMonth());
    const servedInAll = answered + 1; // the slow batch
    assert.ok(summary.billableRequests >= servedInAll, `every answered request is in usage (${summary.billableRequests} >= ${servedInAll})`);
    assert.ok(summary.billableRequests <= servedInAll + unanswered, 'nothing beyond the requests that reached the server');
    const outbox = await store.meterOutbox.stats();
    assert.equal(outbox.pending, 0, 'the last flush sent every meter event');
    // A meter event reports one customer-second's calls (docs/decisions/0435-meter-events-per-customer-second.md).
    assert.equal(fake.billedUnits('cus_term'), summary.billableRequests, 'every billable request billed once');
    assert.equal(new Set(fake.billedIdentifiers).size, fake.billedIdentifiers.length, 'no meter event sent twice');
    t.diagnostic(`${answered} answered under load, ${unanswered} refused after the listener closed, exit ${Date.now() - signalled} ms after SIGTERM`);
  });
}

test('a request still unfinished after SHUTDOWN_TIMEOUT_SECONDS is cut and the server exits 0 anyway', { timeout: 120_000 }, async (t) => {
  const { dataDir } = await sqliteState(t);
  const server = await startServer(t, { DATA_DIR: dataDir, WEB_CONCURRENCY: '1', SHUTDOWN_TIMEOUT_SECONDS: '1' });
  // A body that never completes (the request timeout, 30 s, is far away).
  const stuck = rawRequest(
    server.url,
    'POST /v1/programs/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"unified_ids":[',
  );
  await new Promise((r) => setTimeout(r, 300));
  const signalled = Date.now();
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
  const ms = Date.now() - signalled;
  await stuck.answer;
  assert.equal(server.child.exitCode, 0, server.output().slice(-1000));
  assert.ok(ms < 10_000, `exited ${ms} ms after SIGTERM (bound 1 s; the request timeout would be 30 s)`);
  assert.match(server.output(), /requests still in flight after SHUTDOWN_TIMEOUT_SECONDS/);
});
