// The running server serves a sync's dataset version without a restart and
// without failing a request: a real server process under steady load while
// `sync jgrants` publishes; afterwards the new programme and the enriched
// window are served by the same processes (two workers, as `npm start` runs on
// two cores), each having swapped on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureCatalog } from '../../src/ingest/ensure.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { syncJgrants } from '../../src/sources/jgrants/sync.ts';
import { tempDir } from '../helper.ts';
import { startServer } from '../faults/servers.ts';
import { startJgrantsFake, jgrantsRecord } from '../fakes/jgrants-server.ts';
import { recordingProgress, SOURCES_DATASET, syncConfig, syncEnv } from './fixture.ts';

const NEW_ID = 'UNI-jg-a0W0000000000NEWAAA';

test('a published sync is served by the running server without a restart or a failed request', async (t) => {
  const dataDir = tempDir(t);
  await ensureCatalog(CATALOG_PLAN, dataDir, SOURCES_DATASET);
  const server = await startServer(t, {
    ...syncEnv(dataDir),
    WEB_CONCURRENCY: '2',
    CATALOG_POLL_SECONDS: '1',
    ANON_DAILY_LIMIT: '1000000',
    OUTBOUND_INTERVAL_SECONDS: '0',
  });
  const pid = server.child.pid;
  const get = async (p: string) => {
    const res = await fetch(`${server.url}${p}`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  assert.equal((await get(`/v1/programs/${NEW_ID}`)).status, 404);

  // Steady load: four clients, each request waited for, every answer counted.
  let stop = false;
  const outcomes = { ok: 0, failed: [] as string[] };
  const paths = ['/v1/programs/search?q=補助金', '/v1/programs/UNI-t0000001', '/v1/programs/search?prefecture=北海道', '/healthz'];
  const client = async (i: number) => {
    for (let n = 0; !stop; n++) {
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
  const load = Promise.all([0, 1, 2, 3].map(client));

  const fake = await startJgrantsFake({
    records: [
      jgrantsRecord('a0W000000000001AAA', '小規模事業者持続化補助金', { acceptance_end_datetime: '2026-07-31T08:00:00.000Z' }),
      jgrantsRecord('a0W0000000000NEWAAA', '北の創業応援補助金', { target_area_search: '北海道' }),
    ],
  });
  t.after(() => fake.close());
  const { exitCode, report } = await syncJgrants({
    config: syncConfig(dataDir, { JGRANTS_API_BASE: fake.base }),
    keywords: ['補助金'],
    acceptance: ['1'],
    recordChanges: true,
    progress: recordingProgress(),
    backoffMs: 1,
  });
  assert.equal(exitCode, 0, JSON.stringify(report));

  // Every serving process (each worker of `npm start`, which the cluster
  // balances round-robin) notices the new file (fs.watch, or the 1 s poll) and
  // swaps on its own: wait until 20 answers in a row carry the new programme.
  let served = await get(`/v1/programs/${NEW_ID}`);
  for (let i = 0, inARow = 0; inARow < 20 && i < 400; i++) {
    served = await get(`/v1/programs/${NEW_ID}`);
    inARow = served.status === 200 ? inARow + 1 : 0;
    if (served.status !== 200) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(served.status, 200, 'the new programme is served');
  assert.equal(served.body.primary_name, '北の創業応援補助金');
  stop = true;
  await load;

  assert.deepEqual(outcomes.failed, [], 'no request failed during the swap');
  assert.ok(outcomes.ok > 0);
  assert.equal(server.child.pid, pid, 'the same process');
  assert.equal(server.child.exitCode, null);
  assert.equal((await get('/v1/programs/UNI-t0000001')).body.application_window.end, '2026-07-31');
  const search = await get('/v1/programs/search?prefecture=北海道');
  assert.ok(
    search.body.results.some((r: { unified_id: string }) => r.unified_id === NEW_ID),
    "the search index is the new catalogue's",
  );
  assert.match(search.body.attribution.source, /出典：Jグランツ/);
  assert.match(search.body.attribution.notice, /https:\/\/www\.jgrants-portal\.go\.jp\/subsidy\/a0W0000000000NEWAAA/);
  assert.equal(server.output().match(/catalogue swapped/g)?.length, 2, 'each of the two workers swapped once');
  assert.match(server.output(), /catalogue closed-retired/, 'the previous catalogue was closed once its requests were done');
});
