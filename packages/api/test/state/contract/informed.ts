// Staying informed: the change feed (versions, gap-free sequence, nothing
// recorded twice, one writer at a time), saved searches and their matches,
// webhook endpoints and their delivery outbox (claims, retries, disabling),
// subscribers and their mail, and leases.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import type { TrackedRecord, VersionSnapshot } from '../../../src/state/repositories/changes.ts';
import { insertMatches } from '../../../src/state/repositories/saved-searches.ts';
import { contractTest } from './fixtures.ts';

const rec = (id: string, body: Record<string, unknown>, kind: TrackedRecord['kind'] = 'program'): TrackedRecord => ({
  kind,
  id,
  hash: JSON.stringify(body),
  body,
  title: String(body.primary_name ?? id),
  prefecture: (body.prefecture as string) ?? null,
});
const snap = (records: TrackedRecord[]): VersionSnapshot => ({
  fingerprint: records
    .map((r) => `${r.kind}:${r.id}:${r.hash}`)
    .sort()
    .join('|'),
  counts: { program: records.filter((r) => r.kind === 'program').length },
  records,
});

export function informedContract(factory: StoreFactory): void {
  contractTest(factory, 'changes: a baseline records no events; the next version its created, amended and removed records, once', async (t) => {
    const { store } = await factory.open(t);
    const v1 = [rec('P1', { primary_name: 'A', amount: 1 }), rec('P2', { primary_name: 'B', prefecture: '東京都' }), rec('L1', { title: 'Law' }, 'law')];
    const first = await store.changes.recordVersion(snap(v1));
    assert.equal(first.recorded, true);
    assert.equal(first.version.baseline, true);
    assert.equal(first.recorded && first.events.length, 0);
    assert.equal((await store.changes.recordVersion(snap(v1))).recorded, false, 'the same dataset again records nothing');

    const v2 = [rec('P1', { primary_name: 'A', amount: 2 }), rec('P3', { primary_name: 'C', prefecture: '大阪府' }), rec('L1', { title: 'Law' }, 'law')];
    const fanned: string[] = [];
    const second = await store.changes.recordVersion(snap(v2), async (_q, events) => void fanned.push(...events.map((e) => e.type)));
    assert.ok(second.recorded);
    assert.deepEqual(
      second.events.map((e) => [e.seq, e.type, e.recordId]),
      [
        [1, 'program.created', 'P3'],
        [2, 'program.amended', 'P1'],
        [3, 'program.removed', 'P2'],
      ],
    );
    assert.deepEqual(second.events[1].changes, [{ field: 'amount', old: 1, new: 2 }]);
    assert.equal(second.events[2].title, 'B', 'a removed record is announced under its last name');
    assert.equal(second.events[2].prefecture, '東京都');
    assert.deepEqual(fanned, ['program.created', 'program.amended', 'program.removed'], 'the fan-out saw the events in the same transaction');
    assert.deepEqual(second.version.changeCounts, { created: 1, amended: 1, removed: 1 });
    assert.equal((await store.changes.recordVersion(snap(v2))).recorded, false);
    assert.deepEqual(await store.changes.head(), { lastVersion: 2, lastSeq: 3 });

    // A removed record that reappears is created again; its history keeps every step.
    const third = await store.changes.recordVersion(snap([...v2, rec('P2', { primary_name: 'B', prefecture: '東京都' })]));
    assert.ok(third.recorded);
    assert.deepEqual(
      third.events.map((e) => [e.seq, e.type]),
      [[4, 'program.created']],
    );
    const history = await store.changes.recordHistory('program', 'P2');
    assert.equal(history.firstVersion, 1);
    assert.deepEqual(
      history.events.map((e) => e.type),
      ['program.removed', 'program.created'],
    );

    const page = await store.changes.events({ afterSeq: 1, upToSeq: 4, kinds: ['program'], limit: 2 });
    assert.deepEqual(
      page.map((e) => e.seq),
      [2, 3],
    );
    assert.deepEqual(
      (await store.changes.events({ afterSeq: 0, upToSeq: 4, prefecture: '大阪府', limit: 10 })).map((e) => e.recordId),
      ['P3'],
    );
    assert.deepEqual(
      (await store.changes.events({ afterSeq: 0, upToSeq: 4, types: ['program.removed'], limit: 10 })).map((e) => e.seq),
      [3],
    );
  });

  contractTest(factory, 'changes: two writers recording at once leave one version and a gap-free sequence', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    await store.changes.recordVersion(snap([rec('P1', { v: 0 })]));
    const next = snap([rec('P1', { v: 1 }), rec('P2', { v: 1 })]);
    const [a, b] = await Promise.all([store.changes.recordVersion(next), other.changes.recordVersion(next)]);
    assert.equal([a, b].filter((r) => r.recorded).length, 1, 'exactly one of them recorded the version');
    const events = await store.changes.events({ afterSeq: 0, upToSeq: 100, limit: 100 });
    assert.deepEqual(
      events.map((e) => e.seq),
      [1, 2],
    );
    assert.equal((await store.changes.versions()).length, 2);
  });

  contractTest(factory, 'saved searches: owned by a key, capped per key, matches recorded once per event', async (t) => {
    const { store } = await factory.open(t);
    const s = await store.savedSearches.create({ keyId: 7, name: 'Tokyo', query: { prefecture: '東京都' } }, 2);
    assert.ok(s);
    assert.ok(await store.savedSearches.create({ keyId: 7, name: 'two', query: {} }, 2));
    assert.equal(await store.savedSearches.create({ keyId: 7, name: 'three', query: {} }, 2), null, 'the per-key cap');
    assert.deepEqual((await store.savedSearches.get(s.id, 7))?.query, { prefecture: '東京都' });
    assert.equal(await store.savedSearches.get(s.id, 8), null, 'another key does not see it');
    assert.equal((await store.savedSearches.listForKey(7)).length, 2);
    const match = { savedSearchId: s.id, seq: 5, version: 2, type: 'program.created', unifiedId: 'P1', primaryName: 'A' };
    await store.changes.recordVersion(snap([]));
    // Matches are written by the recorder's fan-out, inside its transaction.
    await store.changes.recordVersion(snap([rec('P1', { a: 1 })]), async (q) => {
      await insertMatches(q, [match, match]);
    });
    const matches = await store.savedSearches.matches(s.id);
    assert.equal(matches.length, 1);
    assert.equal((await store.savedSearches.get(s.id))?.matchCount, 1);
    assert.equal(await store.savedSearches.delete(s.id, 8), false);
    assert.equal(await store.savedSearches.delete(s.id, 7), true);
    assert.equal((await store.savedSearches.matches(s.id)).length, 0, 'matches go with their search');
  });

  contractTest(factory, 'webhook outbox: one claim at a time, retries, delivery, disabling after consecutive failures', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const ep = await store.webhookEndpoints.create(
      { keyId: 1, url: 'https://example.com/hook', events: ['program.created'], description: null, sealedSecret: 'sealed' },
      5,
    );
    assert.ok(ep);
    const payload = (id: string) => JSON.stringify({ id });
    assert.equal(await store.webhookEndpoints.queue([{ endpointId: ep.id, source: 'seq:1', eventType: 'program.created', payload }]), 1);
    assert.equal(
      await store.webhookEndpoints.queue([{ endpointId: ep.id, source: 'seq:1', eventType: 'program.created', payload }]),
      0,
      'one delivery per source',
    );
    assert.equal(await store.webhookEndpoints.queue([{ endpointId: ep.id, source: 'seq:2', eventType: 'program.created', payload }]), 1);

    const at = '2030-01-01T00:00:00.000Z';
    const until = '2030-01-01T00:01:00.000Z';
    const [mine, theirs] = await Promise.all([store.webhookEndpoints.claim('w1', at, until, 10), other.webhookEndpoints.claim('w2', at, until, 10)]);
    assert.equal(mine.length + theirs.length, 2, 'each due delivery claimed by exactly one worker');
    assert.equal(new Set([...mine, ...theirs].map((c) => c.delivery.id)).size, 2);
    const claims = [...mine.map((c) => ['w1', c] as const), ...theirs.map((c) => ['w2', c] as const)];
    const [holderA, a] = claims[0];
    const [holderB, b] = claims[1];
    assert.equal(JSON.parse(a.delivery.payload).id, a.delivery.id, 'the payload carries the stable delivery id');
    await store.webhookEndpoints.markFailed(a.delivery.id, 'intruder', { status: 500, error: 'x', retryAt: at }, 3);
    assert.equal((await store.webhookEndpoints.delivery(a.delivery.id))?.attempts, 0, 'only the claim holder settles a delivery');

    await store.webhookEndpoints.markDelivered(b.delivery.id, holderB, 200);
    await store.webhookEndpoints.markFailed(a.delivery.id, holderA, { status: 500, error: 'HTTP 500', retryAt: '2030-01-01T00:05:00.000Z' }, 3);
    assert.equal((await store.webhookEndpoints.delivery(b.delivery.id))?.status, 'delivered');
    assert.equal((await store.webhookEndpoints.claim('w1', at, until, 10)).length, 0, 'a retry waits for its time');
    const retry = await store.webhookEndpoints.claim('w1', '2030-01-01T00:05:00.000Z', '2030-01-01T00:06:00.000Z', 10);
    assert.equal(retry.length, 1);
    assert.equal(retry[0].delivery.attempts, 1);
    await store.webhookEndpoints.markFailed(a.delivery.id, 'w1', { status: null, error: 'connect ECONNREFUSED', retryAt: '2030-01-01T00:10:00.000Z' }, 3);
    const last = await store.webhookEndpoints.claim('w1', '2030-01-01T00:10:00.000Z', '2030-01-01T00:11:00.000Z', 10);
    const r = await store.webhookEndpoints.markFailed(last[0].delivery.id, 'w1', { status: 503, error: 'HTTP 503', retryAt: null }, 3);
    assert.deepEqual(r, { disabled: true });
    const disabled = await store.webhookEndpoints.get(ep.id, 1);
    assert.equal(disabled?.status, 'disabled');
    assert.match(disabled?.disabledReason ?? '', /3 consecutive failed delivery attempts; the last: HTTP 503/);
    assert.equal((await store.webhookEndpoints.delivery(a.delivery.id))?.status, 'failed');
    assert.equal(
      await store.webhookEndpoints.create({ keyId: 1, url: 'https://e.com', events: [], description: null, sealedSecret: 's' }, 1),
      null,
      'per-key cap',
    );
    assert.equal(await store.webhookEndpoints.delete(ep.id, 2), false);
    assert.equal(await store.webhookEndpoints.delete(ep.id, 1), true);
    assert.equal(await store.webhookEndpoints.delivery(a.delivery.id), null, 'deliveries go with their endpoint');
  });

  contractTest(factory, 'subscribers: confirm, a digest queued once, unsubscribe deletes the address, its mail and its own search', async (t) => {
    const { store, dump } = await factory.open(t);
    const search = await store.savedSearches.create({ keyId: null, name: 'mail', query: { prefecture: '北海道' } });
    assert.ok(search);
    const sub = await store.subscribers.create({ emailHash: 'h1', sealedEmail: 'sealed-address-xyz', savedSearchId: search.id, ownsSearch: true }, (id) => ({
      subject: 'Confirm',
      text: `confirm ${id}`,
      html: '<p>confirm</p>',
    }));
    assert.equal(await store.subscribers.countSince('h1', '2000-01-01T00:00:00.000Z'), 1);
    const [confirmMail] = await store.subscribers.claimEmails('w1', new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10);
    assert.equal(confirmMail.email.kind, 'confirm');
    assert.equal(confirmMail.sealedEmail, 'sealed-address-xyz');
    await store.subscribers.markEmailSent(confirmMail.email.id, 'w1');
    assert.equal(await store.subscribers.confirm(sub.id), true);

    await store.changes.recordVersion(snap([]));
    await store.changes.recordVersion(snap([rec('P9', { a: 1 })]), (q) =>
      insertMatches(q, [{ savedSearchId: search.id, seq: 1, version: 2, type: 'program.created', unifiedId: 'P9', primaryName: '札幌' }]),
    );
    const due = await store.subscribers.dueForDigest('2999-01-01T00:00:00.000Z', 10);
    assert.deepEqual(
      due.map((s) => s.id),
      [sub.id],
    );
    const matches = await store.savedSearches.matches(search.id, { afterId: due[0].lastMatchId });
    const mail = { subject: 'Digest', text: 'P9', html: '<p>P9</p>' };
    const lastId = matches[matches.length - 1].id;
    assert.equal(await store.subscribers.queueDigest(sub.id, due[0].lastMatchId, lastId, mail), true);
    assert.equal(await store.subscribers.queueDigest(sub.id, due[0].lastMatchId, lastId, mail), false, 'queued once');
    assert.equal((await store.subscribers.dueForDigest('2999-01-01T00:00:00.000Z', 10)).length, 0, 'nothing new to report');

    const [digest] = await store.subscribers.claimEmails('w1', new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10);
    assert.equal(digest.email.kind, 'digest');
    await store.subscribers.markEmailFailed(digest.email.id, 'w1', 'SMTP 451', '2000-01-01T00:00:00.000Z');
    const [again] = await store.subscribers.claimEmails('w2', new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10);
    assert.equal(again.email.attempts, 1);

    assert.equal(await store.subscribers.delete(sub.id), true);
    assert.equal(await store.subscribers.get(sub.id), null);
    assert.equal(await store.savedSearches.get(search.id), null, "the subscription's own search is gone");
    assert.doesNotMatch(await dump(), /sealed-address-xyz/, 'no trace of the address remains');
  });

  contractTest(factory, 'leases: one holder at a time; another takes over when it expires or is released', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const t0 = '2030-01-01T00:00:00.000Z';
    const t1 = '2030-01-01T00:00:30.000Z';
    const results = await Promise.all([store.leases.acquire('outbound', 'a', t0, t1), other.leases.acquire('outbound', 'b', t0, t1)]);
    assert.equal(results.filter(Boolean).length, 1, 'exactly one holder');
    const holder = results[0] ? 'a' : 'b';
    const loser = holder === 'a' ? 'b' : 'a';
    assert.equal(await store.leases.acquire('outbound', holder, t0, t1), true, 'the holder renews');
    assert.equal(await store.leases.acquire('outbound', loser, '2030-01-01T00:00:10.000Z', '2030-01-01T00:00:40.000Z'), false);
    assert.equal(await store.leases.acquire('outbound', loser, '2030-01-01T00:00:31.000Z', '2030-01-01T00:01:01.000Z'), true, 'expired: taken over');
    await store.leases.release('outbound', loser);
    assert.equal(await store.leases.holder('outbound', t0), null);
  });
}
