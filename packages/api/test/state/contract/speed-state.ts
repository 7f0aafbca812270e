// The paid-call hot path's part of the contract: spend reserved within the cap
// before serving (exact under concurrency on two handles), confirmed or
// released by the usage event, expired reservations given back; the keys
// generation that other processes' key caches poll; and the group commit
// over the store (several writes, one transaction, each its own outcome).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { GroupCommit } from '../../../src/state/group-commit.ts';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey, usage } from './fixtures.ts';

export function speedStateContract(factory: StoreFactory): void {
  contractTest(factory, 'reservations: 40 concurrent reservations on two handles against a 30-yen cap: exactly ten, then settled', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    await store.keys.setMonthlyCap(key.id, 30);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).usage.reserve(key.id, '2025-04', 3, randomUUID())));
    const reserved = results.flatMap((r) => (r.reserved && r.reservation ? [r.reservation] : []));
    assert.equal(reserved.length, 10, 'exactly cap / price reservations');
    for (const r of results) if (!r.reserved) assert.equal(r.spentYen, 30, 'a refusal sees the spend held');
    assert.equal(await store.usage.reservedYen(key.id, '2025-04'), 30);
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 0, 'nothing spent before the events');

    // Six answered 2xx (confirmed), four answered otherwise (released).
    const entries = reserved.map((r, i) => ({
      event: usage({ keyId: key.id, ...(i < 6 ? {} : { status: 404, billable: false, amountYen: 0 }) }),
      capYen: 30,
      reservations: [r],
    }));
    assert.deepEqual(
      await store.usage.recordMany(entries),
      entries.map(() => true),
    );
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 18);
    assert.equal(await store.usage.reservedYen(key.id, '2025-04'), 0);
    assert.equal((await store.meterOutbox.pending(100)).length, 6, 'one meter event per confirmed call');
    const summary = await store.usage.summary(key.id, '2025-04');
    assert.deepEqual([summary.requests, summary.billableRequests, summary.spendYen], [10, 6, 18]);
    // Settling again (a replayed event) changes nothing.
    await store.usage.recordMany(entries.slice(0, 1));
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 18);
    // 12 yen of room remain: four more fit, the fifth does not.
    const more = await Promise.all(Array.from({ length: 5 }, () => other.usage.reserve(key.id, '2025-04', 3, randomUUID())));
    assert.equal(more.filter((r) => r.reserved).length, 4);
    await store.usage.release(more.flatMap((r) => (r.reserved && r.reservation ? [r.reservation] : [])));
    assert.equal(await store.usage.reservedYen(key.id, '2025-04'), 0, 'release gives it all back');
    assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 18, 'and bills nothing');
  });

  contractTest(
    factory,
    'reservations: a reservation left unsettled (its process died) is given back once it expires; a late confirm still bills',
    async (t) => {
      const { store, reopen } = await factory.open(t);
      const other = await reopen();
      const key = await paidKey(store);
      await store.keys.setMonthlyCap(key.id, 6);
      const leaked = await store.usage.reserve(key.id, '2025-04', 3, randomUUID(), 1_000);
      const live = await store.usage.reserve(key.id, '2025-04', 3, randomUUID(), 60_000);
      assert.ok(leaked.reserved && leaked.reservation && live.reserved && live.reservation);
      assert.equal((await store.usage.reserve(key.id, '2025-04', 3, randomUUID())).reserved, false, 'the cap is held by both');
      assert.equal(await store.usage.sweepExpiredReservations(), 0, 'nothing has expired yet');
      const later = new Date(Date.now() + 2_000);
      const swept = await Promise.all([store.usage.sweepExpiredReservations(later), other.usage.sweepExpiredReservations(later)]);
      assert.equal(swept[0] + swept[1], 1, 'two sweepers give the expired one back once');
      assert.equal(await store.usage.reservedYen(key.id, '2025-04'), 3, 'the live one stands');
      // A request whose reservation was swept is still billed when it answers.
      await store.usage.record(usage({ keyId: key.id }), 6, [leaked.reservation!]);
      assert.equal(await store.usage.monthlySpend(key.id, '2025-04'), 3);
      assert.equal(await store.usage.reservedYen(key.id, '2025-04'), 3);
      // The legacy guarded write counts reservations too.
      assert.equal(await store.usage.record(usage({ keyId: key.id }), 6), false, '3 spent + 3 reserved + 3 > 6');
    },
  );

  contractTest(factory, 'reservations: the cap is read in the reservation, so a change made through another handle holds at once', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const key = await paidKey(store);
    const uncapped = await store.usage.reserve(key.id, '2025-04', 3, randomUUID());
    assert.deepEqual(uncapped, { reserved: true, capYen: null, reservation: null }, 'an uncapped key holds nothing');
    await other.keys.setMonthlyCap(key.id, 3);
    const first = await store.usage.reserve(key.id, '2025-04', 3, randomUUID());
    assert.ok(first.reserved && first.reservation && first.capYen === 3, 'the cap set through the other handle');
    assert.deepEqual(await store.usage.reserve(key.id, '2025-04', 3, randomUUID()), { reserved: false, capYen: 3, spentYen: 3 });
    await other.keys.setMonthlyCap(key.id, 6);
    const raised = await store.usage.reserve(key.id, '2025-04', 3, randomUUID());
    assert.ok(raised.reserved && raised.capYen === 6, 'raised: room again at once');
    await other.keys.setMonthlyCap(key.id, null);
    assert.deepEqual(await store.usage.reserve(key.id, '2025-04', 3, randomUUID()), { reserved: true, capYen: null, reservation: null }, 'removed');
  });

  contractTest(factory, 'keys: a change stamps the changed keys with its generation; changedSince names only those', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const one = await paidKey(store, 1);
    const two = await paidKey(store, 2);
    const g = await other.keys.generation();
    assert.deepEqual(await other.keys.changedSince(g, 10), [], 'nothing since now');
    await store.keys.setMonthlyCap(one.id, 300);
    assert.deepEqual(await other.keys.changedSince(g, 10), [one.keyHash], 'the capped key, not the other');
    await store.keys.revoke(two.id);
    assert.deepEqual((await other.keys.changedSince(g, 10))?.sort(), [one.keyHash, two.keyHash].sort());
    assert.equal(await other.keys.changedSince(g, 1), null, 'more than the limit: null (forget everything)');
    assert.deepEqual(await other.keys.changedSince(await other.keys.generation(), 10), []);
  });

  contractTest(factory, 'usage: a batch with no cap checked at write time takes a fixed number of statements and the same outcome', async (t) => {
    const { store } = await factory.open(t);
    const one = await paidKey(store, 1);
    const two = await paidKey(store, 2);
    const earlier = usage({ keyId: one.id });
    await store.usage.record(earlier, null);
    await store.keys.setMonthlyCap(two.id, 9);
    const reservation = await store.usage.reserve(two.id, '2025-04', 3, randomUUID());
    assert.ok(reservation.reserved && reservation.reservation);
    const twice = usage({ keyId: one.id });
    const entries = [
      { event: twice, capYen: null },
      { event: twice, capYen: null }, // the same id twice in one batch: written once
      { event: earlier, capYen: null }, // recorded by an earlier batch: nothing changes
      { event: usage({ keyId: one.id, route: '/v1/ping', billable: false, amountYen: 0 }), capYen: null },
      { event: usage({ keyId: two.id, customerId: 'cus_2' }), capYen: 9, reservations: [reservation.reservation] },
      ...Array.from({ length: 40 }, () => ({ event: usage({ keyId: one.id }), capYen: null })),
    ];
    assert.deepEqual(
      await store.usage.recordMany(entries),
      entries.map(() => true),
    );
    assert.equal(await store.usage.monthlySpend(one.id, '2025-04'), 3 * 42, 'earlier, twice once, and the 40');
    assert.equal(await store.usage.monthlySpend(two.id, '2025-04'), 3);
    assert.equal(await store.usage.reservedYen(two.id, '2025-04'), 0, 'the reservation was confirmed');
    assert.equal((await store.usage.summary(one.id, '2025-04')).requests, 43);
    const outbox = await store.meterOutbox.pending(1000);
    assert.equal(outbox.length, 43, 'one meter row per billed event, once');
    assert.equal(outbox.filter((o) => o.customerId === 'cus_2').length, 1);
  });

  contractTest(factory, 'keys: every change bumps the generation; a change inside a transaction is announced after commit', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const seen: number[] = [];
    const hashes: string[][] = [];
    const off = store.onKeysChanged((changed) => {
      seen.push(seen.length);
      hashes.push([...changed]);
    });
    const g0 = await other.keys.generation();
    const key = await paidKey(store);
    const g1 = await other.keys.generation();
    assert.ok(g1 > g0, 'a new key');
    await store.keys.setMonthlyCap(key.id, 100);
    await store.keys.revoke(key.id);
    const g2 = await other.keys.generation();
    assert.ok(g2 >= g1 + 2, 'cap and revocation');
    assert.equal(await store.keys.revoke(key.id), 0);
    assert.equal(await other.keys.generation(), g2, 'a revocation that changed nothing bumps nothing');
    assert.equal(seen.length, 3);
    assert.deepEqual(hashes, [[key.keyHash], [key.keyHash], [key.keyHash]], 'each announcement names the key changed');
    let inside = -1;
    await store.atomically(async (tx) => {
      await tx.keys.setSubscriptionStatus('sub_1', 'past_due');
      inside = seen.length;
    });
    assert.equal(inside, 3, 'not announced before the commit');
    assert.equal(seen.length, 4, 'announced after it');
    await assert.rejects(
      store.atomically(async (tx) => {
        await tx.keys.setSubscriptionStatus('sub_1', 'active');
        throw new Error('rolled back');
      }),
    );
    assert.equal(seen.length, 4, 'a rolled-back change is not announced');
    off();
  });

  contractTest(
    factory,
    'group commit: concurrent writes share transactions, each gets its own outcome, a bad one fails alone, drain commits the rest',
    async (t) => {
      const { store } = await factory.open(t);
      const key = await paidKey(store);
      const commit = new GroupCommit((fn) => store.atomically(fn), { windowMs: 1, maxBatch: 16 });
      const writes = Array.from({ length: 50 }, (_, i) =>
        commit.submit(async (tx) => {
          if (i === 7) throw new Error('bad write');
          return tx.usage.record(usage({ keyId: key.id }), null);
        }),
      );
      const outcomes = await Promise.allSettled(writes);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled' && o.value === true).length, 49);
      assert.equal(outcomes[7].status, 'rejected');
      assert.ok(commit.stats.batches < 50, `fewer transactions than writes (${commit.stats.batches})`);
      assert.ok(commit.stats.largestBatch > 1 && commit.stats.largestBatch <= 16);
      assert.equal((await store.usage.summary(key.id, '2025-04')).requests, 49, 'the batch of the bad write was retried without it');
      // Mergeable writes of many callers reach one writeAll per batch, each caller gets its own result.
      const calls: number[] = [];
      const merged = {
        async writeAll(tx: Parameters<Parameters<typeof store.atomically>[0]>[0], items: readonly number[]) {
          calls.push(items.length);
          await tx.usage.recordMany(items.map(() => ({ event: usage({ keyId: key.id }), capYen: null })));
          return items.map((n) => n * 2);
        },
      };
      const doubled = await Promise.all(Array.from({ length: 20 }, (_, i) => commit.submitMerged(merged, i)));
      assert.deepEqual(
        doubled,
        Array.from({ length: 20 }, (_, i) => i * 2),
      );
      assert.ok(calls.length < 20 && calls.reduce((a, b) => a + b, 0) === 20, `merged into ${calls.length} calls`);
      assert.equal((await store.usage.summary(key.id, '2025-04')).requests, 69);
      // Queued writes are committed by drain, without waiting for their window.
      const slow = new GroupCommit((fn) => store.atomically(fn), { windowMs: 60_000, maxBatch: 1000 });
      const pending = slow.submit((tx) => tx.usage.record(usage({ keyId: key.id }), null));
      await slow.drain();
      assert.equal(await pending, true);
      assert.equal((await store.usage.summary(key.id, '2025-04')).requests, 70);
    },
  );
}
