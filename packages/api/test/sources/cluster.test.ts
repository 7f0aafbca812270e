// Many machines, one catalogue (with DATABASE_URL): real server processes with
// their own DATA_DIRs sharing one PostgreSQL schema. A jGrants sync run on
// machine A publishes a dataset version through the store; A (a cluster
// primary with two workers) and B (one process) both serve it without a
// restart and without a failed request under load; a server C started
// afterwards on a fresh DATA_DIR serves it from its first answer and records
// nothing in the change feed, which lists each change once; `cli versions`
// lists the version and the servers serving it; `cli versions rollback` takes
// every server back in one command. A second sync of the source is refused
// while the lease is held, on any machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT } from '../../src/config.ts';
import { syncJgrants } from '../../src/sources/jgrants/sync.ts';
import { SyncLocked } from '../../src/sources/workdir.ts';
import { rollback } from '../../src/versions/rollback.ts';
import { openStateStore } from '../../src/state/index.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { catalogPath } from '../../src/ingest/ingest.ts';
import { tempDir } from '../helper.ts';
import { postgresSchema, startServer, type ServerProcess } from '../faults/servers.ts';
import { TEST_DATABASE_URL } from '../state/stores.ts';
import { startJgrantsFake, jgrantsRecord } from '../fakes/jgrants-server.ts';
import { recordingProgress, syncConfig, syncEnv } from './fixture.ts';

const skip = TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set';
const NEW_ID = 'UNI-jg-a0W0000000000NEWAAA';

async function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, out, err };
}

async function get(server: ServerProcess, path: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Polls until 20 answers in a row (a cluster's workers take turns) have `status`; at most a minute. */
async function waitServes(server: ServerProcess, path: string, status: number): Promise<number> {
  let last = 0;
  for (let i = 0, inARow = 0; inARow < 20 && i < 1200; i++) {
    last = (await get(server, path)).status;
    inARow = last === status ? inARow + 1 : 0;
    if (last !== status) await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

// Five server processes, a sync, four CLI processes and several catalogue builds: more than the default per-test bound on a busy machine.
test('a version synced on one machine is served by every server, from the first answer of a later one, with each change recorded once', {
  skip,
  timeout: 300_000,
}, async (t) => {
  const { url, store } = await postgresSchema(t, TEST_DATABASE_URL!);
  const admin = 'cluster-test-admin-key-0123456789abcdef';
  const shared = {
    DATABASE_URL: url,
    CATALOG_FOLLOW_SECONDS: '1',
    CATALOG_POLL_SECONDS: '1',
    ANON_DAILY_LIMIT: '1000000',
    OUTBOUND_INTERVAL_SECONDS: '0',
    ADMIN_API_KEY: admin,
  };
  const dirA = tempDir(t);
  const dirB = tempDir(t);
  const [a, b] = await Promise.all([
    startServer(t, { ...syncEnv(dirA), ...shared, WEB_CONCURRENCY: '2' }),
    startServer(t, { ...syncEnv(dirB), ...shared, WEB_CONCURRENCY: '1' }),
  ]);
  const pids = [a.child.pid, b.child.pid];
  assert.equal((await get(a, `/v1/programs/${NEW_ID}`)).status, 404);
  const feedBefore = await store.changes.versions();
  assert.equal(feedBefore.length, 1, 'the first server to start recorded the baseline; the second recorded nothing');

  // Steady load on both machines: every answer counted.
  let stop = false;
  const outcomes = { ok: 0, failed: [] as string[] };
  const paths = ['/v1/programs/search?q=補助金', '/v1/programs/UNI-t0000001', '/v1/programs/search?prefecture=北海道', '/healthz'];
  const client = async (server: ServerProcess, i: number) => {
    for (let n = 0; !stop && n < 100_000; n++) {
      const p = paths[(i + n) % paths.length];
      try {
        const res = await fetch(`${server.url}${p}`);
        await res.arrayBuffer();
        if (res.status === 200) outcomes.ok++;
        else outcomes.failed.push(`${p}: ${res.status}`);
      } catch (err) {
        outcomes.failed.push(`${p}: ${(err as Error).message}`);
      }
    }
  };
  const load = Promise.all([client(a, 0), client(a, 1), client(b, 2), client(b, 3)]);

  // The sync runs on machine A (its DATA_DIR, the shared store).
  const fake = await startJgrantsFake({
    records: [
      jgrantsRecord('a0W000000000001AAA', '小規模事業者持続化補助金', { acceptance_end_datetime: '2026-07-31T08:00:00.000Z' }),
      jgrantsRecord('a0W0000000000NEWAAA', '北の創業応援補助金', { target_area_search: '北海道' }),
    ],
  });
  t.after(() => fake.close());
  const configA = syncConfig(dirA, { JGRANTS_API_BASE: fake.base, DATABASE_URL: url });
  const { exitCode, report } = await syncJgrants({
    config: configA,
    keywords: ['補助金'],
    acceptance: ['1'],
    recordChanges: true,
    progress: recordingProgress(),
    backoffMs: 1,
  });
  assert.equal(exitCode, 0, JSON.stringify(report));
  const version = report.dataset_version!;
  assert.match(version, /^dv-[0-9a-f]{20}$/);
  assert.equal((await store.catalogVersions.head()).versionId, version);

  assert.equal(await waitServes(a, `/v1/programs/${NEW_ID}`, 200), 200, 'machine A serves the new programme');
  assert.equal(await waitServes(b, `/v1/programs/${NEW_ID}`, 200), 200, 'machine B pulled the version and serves it');
  stop = true;
  await load;
  assert.deepEqual(outcomes.failed, [], 'no request failed on either machine');
  assert.ok(outcomes.ok > 0);
  assert.deepEqual([a.child.pid, b.child.pid], pids, 'no restart');
  assert.equal(a.child.exitCode, null);
  assert.equal(b.child.exitCode, null);
  assert.match(b.output(), /catalogue swapped/);
  assert.equal((await get(b, '/v1/programs/UNI-t0000001')).body.application_window.end, '2026-07-31');
  for (const server of [a, b]) assert.equal((await get(server, '/readyz')).body.dataset_version, version);
  // /metrics: the number of serving processes per dataset version (A's primary sums its two workers).
  const metrics = async (server: ServerProcess) => (await fetch(`${server.url}/metrics`, { headers: { 'x-admin-key': admin } })).text();
  assert.match(await metrics(a), new RegExp(`^jpsp_dataset_version_info\\{dataset_version="${version}"\\} 2$`, 'm'));
  assert.match(await metrics(b), new RegExp(`^jpsp_dataset_version_info\\{dataset_version="${version}"\\} 1$`, 'm'));

  // A server started afterwards on a fresh DATA_DIR serves the version from its first answer.
  const c = await startServer(t, { ...syncEnv(tempDir(t)), ...shared, WEB_CONCURRENCY: '1' });
  const first = await get(c, `/v1/programs/${NEW_ID}`);
  assert.equal(first.status, 200, 'the first answer of C is the current version');
  assert.equal(first.body.primary_name, '北の創業応援補助金');
  assert.equal((await get(c, '/readyz')).body.dataset_version, version);

  // The change feed: the baseline, and the sync's version once; C recorded nothing.
  const feed = await get(c, '/v1/changes?limit=100');
  assert.deepEqual(
    feed.body.results.filter((e: { record_id: string }) => e.record_id === NEW_ID).map((e: { type: string }) => e.type),
    ['program.created'],
    'the new programme is announced once',
  );
  const keys = feed.body.results.map((e: { type: string; record_id: string }) => `${e.type} ${e.record_id}`);
  assert.equal(new Set(keys).size, keys.length, 'no change is listed twice');
  assert.ok(!keys.some((k: string) => k.startsWith('program.removed')), 'no server recorded its own diff');
  const feedVersions = await store.changes.versions();
  assert.equal(feedVersions.length, 2);
  assert.equal((await store.catalogVersions.version(version))!.feedVersion, feedVersions[0].version, 'the events are the version’s');

  // `cli versions`, run by an operator on a machine of its own (its own DATA_DIR):
  // the version, its report and the servers serving it (each reports after a swap or at start).
  const env = { ...syncEnv(tempDir(t)), DATABASE_URL: url };
  let listed: any = null;
  for (let i = 0; i < 40; i++) {
    const out = await cli(env, 'versions', '--json');
    assert.equal(out.code, 0, out.err);
    listed = JSON.parse(out.out);
    if (listed.versions[0].servers.length >= 4) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(listed.current, version);
  assert.equal(listed.versions[0].id, version);
  assert.equal(listed.versions[0].report.counts.new, 1);
  assert.deepEqual(new Set(listed.versions[0].servers.map((s: { dataDir: string }) => s.dataDir)).size, 3, 'A (two workers), B and C serve it');
  assert.equal(listed.versions[0].servers.length, 4);
  assert.match(listed.versions[1].reason, /^basis/);
  const text = await cli(env, 'versions');
  assert.match(text.out, new RegExp(`\\* ${version}  #2 .* sync jgrants`));

  // One command rolls every server back to the version before: A's primary and B, C pull it.
  const back = await cli(env, 'versions', 'rollback');
  assert.equal(back.code, 0, back.err);
  assert.match(back.err, new RegExp(`rolled back from ${version} to ${listed.versions[1].id}`));
  for (const server of [a, b, c]) assert.equal(await waitServes(server, `/v1/programs/${NEW_ID}`, 404), 404, 'the rollback reached every server');
  const removed = (await get(a, '/v1/changes?kind=program.removed')).body.results.map((e: { record_id: string }) => e.record_id);
  assert.deepEqual(removed, [NEW_ID], 'the rollback withdrew the programme, once');
});

test('a sync takes a cluster-wide lease: a second one, on any machine, is refused while it is held', { skip }, async (t) => {
  const { url, store } = await postgresSchema(t, TEST_DATABASE_URL!);
  const until = new Date(Date.now() + 60_000).toISOString();
  assert.equal(await store.leases.acquire('sync:jgrants', 'machine-b:4242', new Date().toISOString(), until), true);
  const fake = await startJgrantsFake({ records: [jgrantsRecord('a0W000000000001AAA', '小規模事業者持続化補助金')] });
  t.after(() => fake.close());
  const config = syncConfig(tempDir(t), { JGRANTS_API_BASE: fake.base, DATABASE_URL: url });
  const run = () => syncJgrants({ config, keywords: ['補助金'], acceptance: ['1'], recordChanges: true, progress: recordingProgress(), backoffMs: 1 });
  await assert.rejects(run(), (err: Error) => err instanceof SyncLocked && /another sync of jgrants is running \(machine-b:4242\)/.test(err.message));
  assert.equal(fake.requests.length, 0, 'nothing was fetched');
  await store.leases.release('sync:jgrants', 'machine-b:4242');
  const { exitCode } = await run();
  assert.equal(exitCode, 0);
  assert.equal(await store.leases.holder('sync:jgrants', new Date().toISOString()), null, 'released when done');
});

test('without PostgreSQL: versions are recorded in DATA_DIR’s store and a rollback restores the previous catalogue', async (t) => {
  const dataDir = tempDir(t);
  const fake = await startJgrantsFake({ records: [jgrantsRecord('a0W000000000001AAA', '小規模事業者持続化補助金')] });
  t.after(() => fake.close());
  const config = syncConfig(dataDir, { JGRANTS_API_BASE: fake.base });
  const sync = () => syncJgrants({ config, keywords: ['補助金'], acceptance: ['1'], recordChanges: true, progress: recordingProgress(), backoffMs: 1 });
  const first = await sync();
  assert.equal(first.exitCode, 0);
  fake.records = [...fake.records, jgrantsRecord('a0W0000000000NEWAAA', '北の創業応援補助金', { target_area_search: '北海道' })];
  const second = await sync();
  assert.equal(second.exitCode, 0);
  const served = () => {
    const catalog = new Catalog(catalogPath(dataDir));
    try {
      return {
        version: catalog.datasetVersion,
        added: catalog.db.get<{ n: number }>('SELECT count(*) AS n FROM programs WHERE unified_id = ?', NEW_ID)!.n,
      };
    } finally {
      catalog.close();
    }
  };
  assert.deepEqual(served(), { version: second.report.dataset_version, added: 1 });

  const store = await openStateStore(config);
  t.after(() => store.close());
  assert.deepEqual(
    (await store.catalogVersions.versions()).map((v) => [v.id, v.parent]),
    [
      [second.report.dataset_version, first.report.dataset_version],
      [first.report.dataset_version, (await store.catalogVersions.versions())[2].id],
      [(await store.catalogVersions.versions())[2].id, null],
    ],
    'the basis (bundled dataset), then each sync’s version with its parent',
  );
  const out = await rollback(config, store, { recordChanges: true, log: () => {} });
  assert.equal(out.versionId, first.report.dataset_version);
  assert.deepEqual(served(), { version: first.report.dataset_version, added: 0 }, 'this DATA_DIR serves the previous version again');
  assert.equal((await store.catalogVersions.head()).versionId, first.report.dataset_version);
  const removed = await store.changes.events({ afterSeq: 0, upToSeq: 1e9, types: ['program.removed'], limit: 10 });
  assert.deepEqual(
    removed.map((e) => e.recordId),
    [NEW_ID],
    'the rollback is in the feed',
  );
});
