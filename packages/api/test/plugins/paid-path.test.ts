// The paid-call hot path in the app (plugins/auth.ts, limits.ts, usage.ts),
// on SQLite and PostgreSQL: refusals leave no usage row but are counted;
// a capped key's spend is reserved before serving and settled by its answer;
// keys come from the key cache, which a revocation or a cap change in this
// process clears at once and one in another process clears at its next poll;
// the group commit is drained when the app closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWithStore } from '../state/app.ts';
import { FACTORIES, sqliteFactory } from '../state/stores.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { KeyCache } from '../../src/state/key-cache.ts';
import type { StateStore } from '../../src/state/store.ts';
import type { Tier } from '../../src/state/repositories/keys.ts';
import { usage } from '../state/contract/fixtures.ts';

async function issue(store: StateStore, tier: Tier, capYen: number | null = null) {
  const k = generateApiKey();
  const record = await store.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId: tier === 'paid' ? 'cus_hot' : null });
  if (capYen !== null) await store.keys.setMonthlyCap(record.id, capYen);
  return { headers: { 'x-api-key': k.key }, record, hash: k.hash };
}

for (const factory of FACTORIES) {
  const opts = { skip: factory.skip };
  const name = (s: string) => `${factory.kind}: ${s}`;

  test(name('a 429 or 402 answered to a key leaves no usage row; both are counted as errors'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { FREE_DAILY_LIMIT: '2', UNIT_PRICE_YEN: '3', ADMIN_API_KEY: 'admin-secret' });
    const free = await issue(app.state, 'free');
    const paid = await issue(app.state, 'paid', 6);
    const statuses = async (headers: Record<string, string>) => {
      const out = [];
      for (let i = 0; i < 4; i++) out.push((await app.inject({ url: '/v1/programs/search?limit=1', headers })).statusCode);
      return out;
    };
    assert.deepEqual(await statuses(free.headers), [200, 200, 429, 429]);
    assert.deepEqual(await statuses(paid.headers), [200, 200, 402, 402]);
    const month = jstMonth();
    assert.equal((await app.state.usage.summary(free.record.id, month)).requests, 2, 'only served calls are usage');
    const paidUsage = await app.state.usage.summary(paid.record.id, month);
    assert.deepEqual([paidUsage.requests, paidUsage.billableRequests, paidUsage.spendYen], [2, 2, 6]);
    assert.equal(await app.state.usage.reservedYen(paid.record.id, month), 0, 'no reservation is left behind');
    const errors = await app.inject({ url: '/v1/admin/errors', headers: { 'x-admin-key': 'admin-secret' } });
    const rows = JSON.parse(errors.body).rows as { route: string; status: number; count: number }[];
    const count = (status: number) => rows.find((r) => r.route === '/v1/programs/search' && r.status === status)?.count;
    assert.deepEqual([count(429), count(402)], [2, 2], 'refusals are kept as counters');
  });

  test(name('a capped call that answers non-2xx releases its reservation and is not billed'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' });
    const paid = await issue(app.state, 'paid', 3);
    // One unit of room: a 404 takes it and gives it back, so a 200 still fits.
    assert.equal((await app.inject({ url: '/v1/programs/no-such-program', headers: paid.headers })).statusCode, 404);
    assert.equal((await app.inject({ url: '/v1/programs/search?limit=1', headers: paid.headers })).statusCode, 200);
    const refused = await app.inject({ url: '/v1/programs/search?limit=1', headers: paid.headers });
    assert.equal(refused.statusCode, 402);
    assert.deepEqual([JSON.parse(refused.body).cap_yen, JSON.parse(refused.body).spent_yen], [3, 3]);
    assert.equal(await app.state.usage.monthlySpend(paid.record.id, jstMonth()), 3);
    assert.equal(await app.state.usage.reservedYen(paid.record.id, jstMonth()), 0);
  });

  test(name('keys are served from the cache; a revocation or cap change in this process applies to the very next call'), opts, async (t) => {
    const { app } = await buildWithStore(t, factory, { UNIT_PRICE_YEN: '3' });
    const paid = await issue(app.state, 'paid');
    const call = () => app.inject({ url: '/v1/programs/search?limit=1', headers: paid.headers });
    // The first poll that completes after the key's creation clears the cache once (the generation
    // moved): the second of two polls in a row started after the creation.
    await app.keyCache.poll();
    await app.keyCache.poll();
    assert.equal((await call()).statusCode, 200);
    const misses = app.keyCache.stats.misses;
    for (let i = 0; i < 5; i++) assert.equal((await call()).statusCode, 200);
    assert.equal(app.keyCache.stats.misses, misses, 'no store read for a known key');
    await app.state.keys.setMonthlyCap(paid.record.id, 3);
    assert.equal((await call()).statusCode, 402, 'the new cap holds at once (18 yen spent)');
    await app.state.keys.revoke(paid.record.id);
    const revoked = await call();
    assert.equal(revoked.statusCode, 401);
    assert.match(JSON.parse(revoked.body).detail, /revoked/);
  });

  test(name('another process revokes: the key cache drops it at its next poll of the key generation'), opts, async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await issue(store, 'paid');
    const cache = new KeyCache(store, { maxEntries: 10, maxNegative: 10, pollMs: 60_000, ttlMs: 60_000, negativeTtlMs: 60_000 });
    await cache.start();
    t.after(() => cache.close());
    assert.equal((await cache.find(key.hash))?.status, 'active');
    assert.equal(await cache.find('0'.repeat(64)), null);
    // The other handle is another process: its change is not announced here.
    await other.keys.revoke(key.record.id);
    const fresh = generateApiKey();
    await other.keys.create({ keyHash: fresh.hash, prefix: fresh.prefix, tier: 'free' });
    assert.equal((await cache.find(key.hash))?.status, 'active', 'until the poll, the cached record stands');
    await cache.poll();
    assert.equal((await cache.find(key.hash))?.status, 'revoked', 'after it, the store is read again');
    assert.equal((await cache.find(fresh.hash))?.status, 'active');
  });
}

test('the key cache is bounded: known and unknown keys alike', async (t) => {
  const { store } = await sqliteFactory.open(t);
  const cache = new KeyCache(store, { maxEntries: 5, maxNegative: 3, pollMs: 60_000, ttlMs: 60_000, negativeTtlMs: 60_000 });
  t.after(() => cache.close());
  const keys = [];
  for (let i = 0; i < 12; i++) keys.push(await issue(store, 'free'));
  for (const k of keys) await cache.find(k.hash);
  for (let i = 0; i < 50; i++) await cache.find(`${i}`.padStart(64, 'f'));
  assert.equal(cache.size, 5 + 3);
  const misses = cache.stats.misses;
  await cache.find(keys[11].hash);
  assert.equal(cache.stats.misses, misses, 'the most recent are kept');
  await cache.find(keys[0].hash);
  assert.equal(cache.stats.misses, misses + 1, 'the least recent went first');
});

test('sqlite: closing the app commits the usage writes still queued', async (t) => {
  const { app, db } = await buildWithStore(t, sqliteFactory);
  const key = await issue(db.store, 'paid');
  const queued = Array.from({ length: 5 }, () => app.groupCommit.submit((tx) => tx.usage.record(usage({ keyId: key.record.id }), null)));
  await app.close();
  assert.deepEqual(await Promise.all(queued), [true, true, true, true, true]);
  assert.equal((await db.store.usage.summary(key.record.id, '2025-04')).requests, 5);
});
