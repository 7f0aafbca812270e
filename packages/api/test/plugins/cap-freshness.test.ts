// A cap change holds on the very next request in every process (issue 24:
// "cap changes arrive late"), and a change to one key never costs another
// key a store read (finding L6). Two apps over two handles of one store
// stand for two processes (two workers or two replicas): what one changes
// is not announced to the other, which sees it through the store alone.
// The multi-process versions, with real servers, are in
// test/faults/cap.faults.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithStore } from '../state/app.ts';
import { FACTORIES, sqliteFactory } from '../state/stores.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import type { StateStore } from '../../src/state/store.ts';
import type { Tier } from '../../src/state/repositories/keys.ts';
import { KeyCache } from '../../src/state/key-cache.ts';

async function issue(store: StateStore, tier: Tier, capYen: number | null = null) {
  const k = generateApiKey();
  const record = await store.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId: tier === 'paid' ? 'cus_cap' : null });
  if (capYen !== null) await store.keys.setMonthlyCap(record.id, capYen);
  return { headers: { 'x-api-key': k.key }, record, hash: k.hash };
}

for (const factory of FACTORIES) {
  const opts = { skip: factory.skip };
  const name = (s: string) => `${factory.kind}: ${s}`;

  test(name('a cap raised or removed in process A holds for the next call in process B, which had the key cached'), opts, async (t) => {
    const { app: a, db } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' });
    const { app: b } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' }, { store: { ...db, store: await db.reopen() } });
    const key = await issue(a.state, 'paid', 6);
    // Both processes have seen the key's creation and cap (their caches hold the cap of 6).
    for (const app of [a, b]) {
      await app.keyCache.poll();
      await app.keyCache.poll();
    }
    const callB = async () => (await b.inject({ url: '/v1/programs/search?limit=1', headers: key.headers })).statusCode;
    assert.deepEqual([await callB(), await callB(), await callB()], [200, 200, 402], 'a cap of 6 yen: two calls of 3 yen');

    const raised = await a.inject({ method: 'POST', url: '/v1/me/cap', headers: key.headers, payload: { monthly_cap_yen: 9 } });
    assert.equal(raised.statusCode, 200, raised.body);
    assert.deepEqual([await callB(), await callB()], [200, 402], 'raised to 9 yen: one more call, at once');

    const removed = await a.inject({ method: 'POST', url: '/v1/me/cap', headers: key.headers, payload: { monthly_cap_yen: null } });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual([await callB(), await callB()], [200, 200], 'removed: no cap, at once');

    const lowered = await a.inject({ method: 'POST', url: '/v1/me/cap', headers: key.headers, payload: { monthly_cap_yen: 3 } });
    assert.equal(lowered.statusCode, 200, lowered.body);
    const refused = await b.inject({ url: '/v1/programs/search?limit=1', headers: key.headers });
    assert.equal(refused.statusCode, 402, 'set again, below the spend: refused at once');
    assert.equal(JSON.parse(refused.body).cap_yen, 3, 'the 402 names the cap in force');
    const me = JSON.parse((await b.inject({ url: '/v1/me', headers: key.headers })).body);
    assert.equal(me.monthly_cap_yen, 3, 'GET /v1/me in B shows the cap set in A');
    const dashboard = JSON.parse((await b.inject({ url: '/v1/me/dashboard', headers: key.headers })).body);
    assert.equal(dashboard.cap_yen, 3, 'and so does the dashboard');
  });

  test(name('another key toggling its cap costs this key no store read, in this process or in another (L6)'), opts, async (t) => {
    const { app: a, db } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' });
    const { app: b } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' }, { store: { ...db, store: await db.reopen() } });
    const victim = await issue(a.state, 'paid');
    const attacker = await issue(a.state, 'paid');
    for (const app of [a, b]) {
      await app.keyCache.poll();
      await app.keyCache.poll();
    }
    const search = (app: typeof a) => app.inject({ url: '/v1/programs/search?limit=1', headers: victim.headers });
    // The victim's key is cached in both processes.
    assert.equal((await search(a)).statusCode, 200);
    assert.equal((await search(b)).statusCode, 200);
    const before = { a: a.keyCache.stats.misses, b: b.keyCache.stats.misses };
    const TOGGLES = 20;
    for (let i = 0; i < TOGGLES; i++) {
      const cap = i % 2 === 0 ? 300 : null;
      const r = await a.inject({ method: 'POST', url: '/v1/me/cap', headers: attacker.headers, payload: { monthly_cap_yen: cap } });
      assert.equal(r.statusCode, 200);
      await b.keyCache.poll(); // B sees the change, as its timer would
      assert.equal((await search(a)).statusCode, 200);
      assert.equal((await search(b)).statusCode, 200);
    }
    // The attacker's own key is read again after each of its changes (in A, where it calls); the victim's never.
    const victimReadsA = a.keyCache.stats.misses - before.a - TOGGLES;
    const victimReadsB = b.keyCache.stats.misses - before.b;
    assert.deepEqual({ a: victimReadsA, b: victimReadsB }, { a: 0, b: 0 }, `victim key reads during ${TOGGLES} cap toggles of another key`);
    // Yet the attacker's change is seen: its key is dropped and read again in B too.
    const attackerInB = await b.inject({ url: '/v1/me', headers: attacker.headers });
    assert.equal(JSON.parse(attackerInB.body).monthly_cap_yen, null);
  });
}

test('a key read on its way while that key is forgotten is not cached; another key read meanwhile is', async (t) => {
  const { store } = await sqliteFactory.open(t);
  const cache = new KeyCache(store, { maxEntries: 10, maxNegative: 10, pollMs: 60_000, ttlMs: 60_000, negativeTtlMs: 60_000 });
  t.after(() => cache.close());
  const one = await issue(store, 'free');
  const two = await issue(store, 'free');
  const reads = [cache.find(one.hash), cache.find(two.hash)];
  cache.forget([one.hash]); // a change to key one commits while both reads are on their way
  await Promise.all(reads);
  const misses = cache.stats.misses;
  await cache.find(one.hash);
  assert.equal(cache.stats.misses, misses + 1, 'key one is read again');
  await cache.find(two.hash);
  assert.equal(cache.stats.misses, misses + 1, 'key two was cached');
});
