// Dataset versions in the store (migration 007): files stored once by hash,
// versions content-addressed and numbered in publication order, the head
// moved under its row lock (two handles racing to move it from the same
// version: exactly one wins), and the servers' reports.
import assert from 'node:assert/strict';
import { HeadMoved } from '../../../src/versions/publish.ts';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

const manifest = (hash: string) => ({ jgrants: { name: '20260101T000000Z', files: { programs: hash } } });

export function catalogVersionsContract(factory: StoreFactory): void {
  contractTest(factory, 'catalog versions: files once by hash, versions in order, the head moved by one of two racing publishers', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const at = '2026-01-01T00:00:00.000Z';
    assert.deepEqual(await store.catalogVersions.head(), { versionId: null, changedAt: null, changedBy: null });
    await store.catalogVersions.putFiles([{ sha256: 'a'.repeat(64), content: '{"x":1}\n' }], at);
    await other.catalogVersions.putFiles([{ sha256: 'a'.repeat(64), content: 'ignored: stored already' }], at);
    assert.equal(await store.catalogVersions.file('a'.repeat(64)), '{"x":1}\n');
    assert.deepEqual(await store.catalogVersions.missingFiles(['a'.repeat(64), 'b'.repeat(64)]), ['b'.repeat(64)]);

    const base = { parent: null, reason: 'sync jgrants', report: { counts: { new: 1 } }, publishedBy: 'h:1', publishedAt: at, feedVersion: 3 };
    const v1 = await store.catalogVersions.addVersion({ ...base, id: 'dv-1', manifest: manifest('a'.repeat(64)) });
    assert.equal(v1.seq, 1);
    assert.equal(
      (await store.catalogVersions.addVersion({ ...base, id: 'dv-1', manifest: {}, reason: 'again' })).reason,
      'sync jgrants',
      'the same id is kept',
    );
    const v2 = await store.catalogVersions.addVersion({ ...base, id: 'dv-2', parent: 'dv-1', manifest: {}, report: null, feedVersion: null });
    assert.equal(v2.seq, 2);
    assert.deepEqual(
      (await other.catalogVersions.versions()).map((v) => [v.id, v.seq, v.parent, v.feedVersion]),
      [
        ['dv-2', 2, 'dv-1', null],
        ['dv-1', 1, null, 3],
      ],
    );
    assert.deepEqual((await other.catalogVersions.version('dv-1'))!.manifest, manifest('a'.repeat(64)));
    assert.deepEqual((await other.catalogVersions.version('dv-1'))!.report, { counts: { new: 1 } });

    // Two publishers move the head from the same version at once: the row lock serialises them, the second sees it moved.
    const move = (s: typeof store, id: string) =>
      s.atomically(async (tx) => {
        const head = await tx.catalogVersions.lockHead();
        if (head.versionId !== null) throw new HeadMoved(`moved to ${head.versionId}`);
        await tx.catalogVersions.setHead(id, id, at);
        return id;
      });
    const outcomes = await Promise.allSettled([move(store, 'dv-1'), move(other, 'dv-2')]);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    assert.ok(rejected.reason instanceof HeadMoved);
    const winner = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<string>).value;
    assert.equal((await other.catalogVersions.head()).versionId, winner);
  });

  contractTest(factory, 'catalog versions: servers report what they serve and age out', async (t) => {
    const { store } = await factory.open(t);
    const report = (serverId: string, versionId: string, seenAt: string) => ({
      serverId,
      host: 'h',
      pid: 1,
      dataDir: `/srv/${serverId}`,
      versionId,
      catalogFingerprint: 'f',
      startedAt: '2026-01-01T00:00:00.000Z',
      seenAt,
    });
    await store.catalogVersions.reportServer(report('a', 'dv-1', '2026-01-01T00:00:10.000Z'));
    await store.catalogVersions.reportServer(report('a', 'dv-2', '2026-01-01T00:01:00.000Z'));
    await store.catalogVersions.reportServer(report('b', 'dv-1', '2026-01-01T00:00:05.000Z'));
    assert.deepEqual(
      (await store.catalogVersions.servers('2026-01-01T00:00:30.000Z')).map((s) => [s.serverId, s.versionId]),
      [['a', 'dv-2']],
      'a report replaces the row; b is too old to be listed',
    );
    assert.equal((await store.catalogVersions.servers('2000-01-01T00:00:00.000Z', '2026-01-01T00:00:06.000Z')).length, 1, 'b forgotten');
    await store.catalogVersions.removeServer('a');
    assert.deepEqual(await store.catalogVersions.servers('2000-01-01T00:00:00.000Z'), []);
  });
}
