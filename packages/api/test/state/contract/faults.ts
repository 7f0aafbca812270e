// What issue 11 added to the store: one transaction over several
// repositories (atomically), tombstones of ended subscriptions, the record
// of billing-portal sessions, erasing sealed keys never picked up, and
// purging expired device codes.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function faultsContract(factory: StoreFactory): void {
  contractTest(factory, 'atomically: everything commits together or nothing does; a nested tx joins it', async (t) => {
    const { store } = await factory.open(t);
    await assert.rejects(
      store.atomically(async (tx) => {
        assert.equal(await tx.webhooks.claim('evt_a', 'x'), true);
        await tx.keys.create({ keyHash: 'h1', prefix: 'am_h1', tier: 'paid', subscriptionId: 'sub_a' });
        throw new Error('crash');
      }),
      /crash/,
    );
    assert.equal(await store.keys.findByHash('h1'), null);
    assert.equal(await store.webhooks.claim('evt_a', 'x'), true, 'the claim was rolled back too');
    const revealed = await store.atomically(async (tx) => {
      const key = await tx.keys.create({ keyHash: 'h2', prefix: 'am_h2', tier: 'paid', subscriptionId: 'sub_b' });
      await tx.issuance.create({ subscriptionId: 'sub_b', customerId: null, keyId: key.id, sealedKey: 'sealed', revealedAt: null });
      return tx.issuance.reveal('sub_b'); // itself a transaction: joins this one
    });
    assert.deepEqual(revealed, { sealedKey: 'sealed' });
    assert.notEqual(await store.keys.findByHash('h2'), null);
  });

  contractTest(factory, 'counters: a take of several units takes all of them or none', async (t) => {
    const { store } = await factory.open(t);
    assert.deepEqual(await store.counters.take('anon', 'a', 'd', 10, 4), { allowed: true, count: 4 });
    assert.deepEqual(await store.counters.take('anon', 'a', 'd', 10, 5), { allowed: true, count: 9 });
    assert.deepEqual(await store.counters.take('anon', 'a', 'd', 10, 2), { allowed: false, count: 9 }, 'two would pass the limit: none taken');
    assert.deepEqual(await store.counters.take('anon', 'a', 'd', 10), { allowed: true, count: 10 });
    assert.deepEqual(await store.counters.take('anon', 'b', 'd', 3, 4), { allowed: false, count: 0 }, 'more than the limit on a fresh counter');
  });

  contractTest(factory, 'subscriptions: a tombstone is kept once and never lifted', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    assert.equal(await store.subscriptions.isEnded('sub_1'), false);
    await Promise.all([store.subscriptions.end('sub_1', 'cus_1', 'canceled', 'evt_1'), other.subscriptions.end('sub_1', 'cus_1', 'canceled', 'evt_2')]);
    assert.equal(await store.subscriptions.isEnded('sub_1'), true);
    assert.equal(await other.subscriptions.isEnded('sub_1'), true);
    assert.equal(await store.subscriptions.isEnded('sub_2'), false);
  });

  contractTest(factory, 'portal sessions: recorded with customer, address hash, key prefix and time; listed newest first', async (t) => {
    const { store } = await factory.open(t);
    const a = await store.portalSessions.record({ customerId: 'cus_1', addressHash: 'a'.repeat(64), keyPrefix: null });
    const b = await store.portalSessions.record({ customerId: 'cus_1', addressHash: 'b'.repeat(64), keyPrefix: 'am_12345678' });
    await store.portalSessions.record({ customerId: 'cus_2', addressHash: null, keyPrefix: null });
    assert.ok(b.id > a.id);
    assert.ok(!Number.isNaN(Date.parse(a.createdAt)));
    const listed = await store.portalSessions.listForCustomer('cus_1');
    assert.deepEqual(
      listed.map((s) => s.id),
      [b.id, a.id],
    );
    assert.deepEqual({ ...listed[0], createdAt: '' }, { id: b.id, customerId: 'cus_1', addressHash: 'b'.repeat(64), keyPrefix: 'am_12345678', createdAt: '' });
  });

  contractTest(factory, 'sealed keys older than the cut-off are erased; revealed and newer ones stay as they are', async (t) => {
    const { store } = await factory.open(t);
    for (const [sub, sealed] of [
      ['sub_old', 'x'],
      ['sub_none', null],
    ] as const) {
      const key = await store.keys.create({ keyHash: `h_${sub}`, prefix: 'am_x', tier: 'paid', subscriptionId: sub });
      await store.issuance.create({ subscriptionId: sub, customerId: null, keyId: key.id, sealedKey: sealed, revealedAt: null });
    }
    assert.equal(await store.issuance.expireSealed(new Date(Date.now() - 3600_000).toISOString()), 0, 'nothing is older than an hour');
    assert.equal(await store.issuance.expireSealed(new Date(Date.now() + 1000).toISOString()), 1);
    assert.equal((await store.issuance.find('sub_old'))?.sealedKey, null);
    assert.equal((await store.issuance.reveal('sub_old'))?.sealedKey, null, 'the reveal then has nothing to show');
  });

  contractTest(factory, 'device codes that expired are purged; approved ones never picked up report their key', async (t) => {
    const { store } = await factory.open(t);
    const code = (hash: string, status: 'pending' | 'approved' | 'consumed', expiresAt: string, keyId: number | null) =>
      store.deviceCodes.create({
        deviceCodeHash: hash,
        userCode: `U-${hash}`,
        clientId: 'c',
        scope: 's',
        status,
        keyId,
        sealedKey: keyId ? 'sealed' : null,
        interval: 5,
        expiresAt,
        lastPolledAt: null,
      });
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 600_000).toISOString();
    await code('expired-pending', 'pending', past, null);
    await code('expired-approved', 'approved', past, 41);
    await code('expired-consumed', 'consumed', past, 42);
    await code('live', 'pending', future, null);
    const result = await store.deviceCodes.purgeExpired(new Date().toISOString());
    assert.equal(result.purged, 3);
    assert.deepEqual(result.unclaimedKeyIds, [41]);
    assert.equal(await store.deviceCodes.findByHash('expired-pending'), null);
    assert.notEqual(await store.deviceCodes.findByHash('live'), null);
  });
}
