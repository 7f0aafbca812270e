// A cap change holds on the next request everywhere (issue 24, "cap changes
// arrive late"): POST /v1/me/cap answered 200 by one server process, the
// very next billable call answered by another (a second replica on the same
// PostgreSQL or SQLite file, or the other worker of a two-worker server)
// sees the new cap, though that process had the key cached with the old one.
// Unit price 3 yen; the key's cap is 6 yen, so two calls fit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { generateApiKey } from '../../src/access/keys.ts';
import { KEY_CACHE_DEFAULTS } from '../../src/state/key-cache.ts';
import { SHARED_STORES, privateDataDir, request, startServer, type Ctx } from './servers.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import path from 'node:path';
import type { StateStore } from '../../src/state/store.ts';

async function cappedKey(store: StateStore, capYen: number) {
  const key = generateApiKey();
  const record = await store.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: 'cus_cap', subscriptionId: 'sub_cap' });
  await store.keys.setMonthlyCap(record.id, capYen);
  return key.key;
}

/** The raise-then-remove sequence of the finding, with `billable` and `setCap` naming which process answers. */
async function capSequence(billable: () => Promise<number>, setCap: (cap: number | null) => Promise<number>) {
  // Both processes have the key cached with its cap of 6 once they have each served it.
  const spent = [await billable(), await billable(), await billable(), await billable()];
  assert.deepEqual(spent.sort(), [200, 200, 402, 402], 'a cap of 6 yen: two calls of 3 yen');
  assert.equal(await setCap(9), 200);
  assert.deepEqual([await billable(), await billable()], [200, 402], 'raised from 6 to 9 yen: the next call fits, the one after does not');
  assert.equal(await setCap(null), 200);
  assert.deepEqual([await billable(), await billable()], [200, 200], 'removed: the next calls are served');
  assert.equal(await setCap(6), 200);
  assert.equal(await billable(), 402, 'set again below the spend: the next call is refused');
}

for (const kind of SHARED_STORES) {
  test(`${kind.kind}: a cap changed through process A holds for the next call answered by process B`, { skip: kind.skip, timeout: 180_000 }, async (t) => {
    const { store, env } = await kind.open(t);
    const key = await cappedKey(store, 6);
    const [a, b] = await Promise.all([startServer(t, { ...env, UNIT_PRICE_YEN: '3' }), startServer(t, { ...env, UNIT_PRICE_YEN: '3' })]);
    const agent = new http.Agent({ keepAlive: true });
    t.after(() => agent.destroy());
    await new Promise((r) => setTimeout(r, 3 * KEY_CACHE_DEFAULTS.pollMs)); // both have seen the key's creation
    let turn = 0;
    // The calls alternate between the processes (each caches the key on its first call); every cap change goes through A.
    const billable = async () => (await request(agent, `${[a, b][turn++ % 2].url}/v1/programs/search?limit=1`, { headers: { 'x-api-key': key } })).status;
    const setCap = async (cap: number | null) => {
      turn = 1; // the next billable call is B's
      const r = await request(agent, `${a.url}/v1/me/cap`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ monthly_cap_yen: cap }),
      });
      return r.status;
    };
    await capSequence(async () => {
      const status = await billable();
      turn = 1; // after a cap change, keep asking B
      return status;
    }, setCap);
  });
}

test('two workers of one server: a cap change answered by one worker holds for the next call on the other', { timeout: 180_000 }, async (t: Ctx) => {
  const dataDir = await privateDataDir(t);
  const setup = openSqliteStore(path.join(dataDir, 'state.sqlite'));
  await setup.migrate();
  const key = await cappedKey(setup, 6);
  await setup.close();
  const server = await startServer(t, { DATA_DIR: dataDir, WEB_CONCURRENCY: '2', UNIT_PRICE_YEN: '3' });
  const deadline = Date.now() + 60_000;
  while ((server.output().match(/Server listening at/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // One keep-alive connection per worker: the primary hands new connections to the workers in turn; the
  // request log line of a probe (found by its request id) names the worker's pid.
  const workerOf = async (agent: http.Agent, probe: string): Promise<string> => {
    const r = await request(agent, `${server.url}/v1/me`, { headers: { 'x-api-key': key, 'x-request-id': probe } });
    assert.equal(r.status, 200, r.body);
    const until = Date.now() + 30_000;
    for (;;) {
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes(`"reqId":"${probe}"`));
      const pid = line ? /"pid":(\d+)/.exec(line)?.[1] : undefined;
      if (pid) return pid;
      assert.ok(Date.now() < until, `no log line for ${probe}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const byWorker = new Map<string, http.Agent>();
  for (let i = 0; i < 20 && byWorker.size < 2; i++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const pid = await workerOf(agent, `probe-${i}`);
    if (byWorker.has(pid)) agent.destroy();
    else byWorker.set(pid, agent);
  }
  assert.equal(byWorker.size, 2, 'one keep-alive connection to each worker');
  t.after(() => {
    for (const agent of byWorker.values()) agent.destroy();
  });
  const [first, second] = [...byWorker.values()];
  await capSequence(
    async () => (await request(second, `${server.url}/v1/programs/search?limit=1`, { headers: { 'x-api-key': key } })).status,
    async (cap) =>
      (
        await request(first, `${server.url}/v1/me/cap`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ monthly_cap_yen: cap }),
        })
      ).status,
  );
});
