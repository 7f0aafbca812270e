// The change feed on real data: the bundled dataset, then the derived second
// version (scripts/derive-dataset.ts), recorded in SQLite and PostgreSQL.
// The events are exactly the manifest's, recorded once; the feed pages by
// cursor without gaps and filters; a programme's history; `cli ingest`
// records the version of the catalogue it built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { recordDatasetVersion } from '../../src/changes/record.ts';
import { ingestCommand } from '../../src/cli/ingest.ts';
import { openStateStore } from '../../src/state/index.ts';
import { ensureDerivedCatalog, ensureTestCatalog } from '../catalog-fixture.ts';
import { body, tempDir } from '../helper.ts';
import { FACTORIES } from '../state/stores.ts';

const bundled = new Catalog(await ensureTestCatalog());
const derived = await ensureDerivedCatalog();
const second = new Catalog(derived.file);

for (const factory of FACTORIES) {
  test(`${factory.kind}: bundled then derived dataset records exactly the manifest's events, once; the feed serves them`, { skip: factory.skip }, async (t) => {
    const { store } = await factory.open(t);
    const first = await recordDatasetVersion(bundled, store);
    assert.ok(first.recorded && first.version.baseline && first.events.length === 0, 'the first version is the baseline');
    assert.equal((await recordDatasetVersion(bundled, store)).recorded, false, 'the same dataset again records nothing');

    const outcome = await recordDatasetVersion(second, store);
    assert.ok(outcome.recorded);
    const got: Record<string, string[]> = {};
    for (const e of outcome.events) (got[e.type] ??= []).push(e.recordId);
    for (const list of Object.values(got)) list.sort();
    assert.deepEqual(got, derived.manifest.events, 'the created, amended and removed records of every kind, nothing else');
    for (const e of outcome.events.filter((e) => e.type.endsWith('.amended'))) {
      const fields = e.changes!.map((c) => c.field);
      for (const edited of derived.manifest.edited[e.recordId]) assert.ok(fields.includes(edited), `${e.recordId}: ${edited} in ${fields}`);
    }
    assert.deepEqual(
      outcome.events.map((e) => e.seq),
      outcome.events.map((_, i) => i + 1),
      'sequence 1..n, no gap',
    );
    assert.equal((await recordDatasetVersion(second, store)).recorded, false, 'ingesting the derived dataset twice records nothing new');
    assert.equal((await store.changes.head()).lastSeq, outcome.events.length);

    const app = await buildApp({ config: loadConfig({ DATA_DIR: tempDir(t), ANON_DAILY_LIMIT: '1000' }), catalog: second, state: store });
    t.after(() => app.close());
    // Follow the feed four events at a time.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const res = await app.inject({ url: `/v1/changes?limit=4${cursor ? `&since=${cursor}` : ''}` });
      assert.equal(res.statusCode, 200, res.body);
      const page = body(res);
      seen.push(...page.results.map((r: any) => r.id));
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    assert.deepEqual(
      seen,
      outcome.events.map((e) => `chg_${e.seq}`),
    );
    const tail = body(await app.inject(`/v1/changes?since=${cursor}`));
    assert.deepEqual(tail.results, [], 'nothing after the last cursor');
    assert.equal(tail.next_cursor, cursor, 'the cursor to poll with stays put');
    assert.equal(tail.latest_version.version, 2);
    assert.deepEqual(tail.latest_version.change_counts, outcome.version.changeCounts);

    const amended = body(await app.inject('/v1/changes?kind=program.amended'));
    assert.deepEqual(amended.results.map((r: any) => r.record_id).sort(), derived.manifest.events['program.amended']);
    const window = amended.results.find((r: any) => derived.manifest.edited[r.record_id][0] === 'application_window');
    assert.deepEqual(window.changes.find((c: any) => c.field === 'application_window').new, derived.manifest.windows[window.record_id]);
    const laws = body(await app.inject('/v1/changes?kind=law,tax_ruleset'));
    assert.ok(laws.results.length > 0 && laws.results.every((r: any) => r.kind === 'law' || r.kind === 'tax_ruleset'));
    const tokyo = body(await app.inject(`/v1/changes?kind=program&prefecture=${encodeURIComponent('東京都')}`));
    assert.ok(
      tokyo.results.length >= 3 && tokyo.results.every((r: any) => r.prefecture === '東京都'),
      JSON.stringify(tokyo.results.map((r: any) => r.prefecture)),
    );

    for (const url of [
      '/v1/changes?since=bogus',
      '/v1/changes?kind=program.exploded',
      '/v1/changes?limit=0',
      `/v1/changes?since=${Buffer.from('c1.999').toString('base64url')}`,
    ]) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(body(res).detail, /Invalid querystring/);
    }
    const versions = body(await app.inject('/v1/changes/versions'));
    assert.deepEqual(
      versions.results.map((v: any) => [v.version, v.baseline]),
      [
        [2, false],
        [1, true],
      ],
    );
    const fromV1 = body(await app.inject(`/v1/changes?since=${versions.results[1].cursor}`));
    assert.equal(fromV1.results.length, Math.min(100, outcome.events.length), "a version's cursor follows from there");

    // Histories: an amended programme, a removed one, one never changed, an unknown id.
    const amendedId = derived.manifest.events['program.amended'][0];
    const h = body(await app.inject(`/v1/programs/${amendedId}/history`));
    assert.equal(h.in_catalogue, true);
    assert.deepEqual(
      h.versions.map((v: any) => [v.version, v.change]),
      [
        [1, 'baseline'],
        [2, 'amended'],
      ],
    );
    const removedId = derived.manifest.events['program.removed'][0];
    const r = body(await app.inject(`/v1/programs/${removedId}/history`));
    assert.equal(r.in_catalogue, false, 'a removed programme keeps its history');
    assert.deepEqual(
      r.versions.map((v: any) => v.change),
      ['baseline', 'removed'],
    );
    const created = body(await app.inject(`/v1/programs/${derived.manifest.events['program.created'][0]}/history`));
    assert.deepEqual(
      created.versions.map((v: any) => [v.version, v.change]),
      [[2, 'created']],
    );
    assert.equal((await app.inject('/v1/programs/UNI-nope-nope/history')).statusCode, 404);
  });
}

test('cli ingest records the version of the catalogue it built against the configured state store', async (t) => {
  const dataDir = tempDir(t, 'jpsp-ingest-');
  const config = loadConfig({ DATA_DIR: dataDir, DATASET_DIR: derived.datasetDir });
  // The store already holds the bundled dataset's version.
  const store = await openStateStore(config);
  await recordDatasetVersion(bundled, store);
  await store.close();

  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  let code: number;
  try {
    code = await ingestCommand.run(['--quiet'], config);
  } finally {
    process.stderr.write = write;
  }
  assert.equal(code, 0, lines.join(''));
  const expected = derived.manifest.events;
  const created = Object.entries(expected)
    .filter(([k]) => k.endsWith('.created'))
    .reduce((n, [, v]) => n + v.length, 0);
  assert.match(lines.join(''), new RegExp(`dataset version 2 recorded: ${created} created`));
  const after = await openStateStore(config);
  t.after(() => after.close());
  assert.equal((await after.changes.head()).lastSeq, Object.values(expected).flat().length);
  assert.ok(path.isAbsolute(dataDir));
});
