// `sync egov` against the local fake of the 法令API v2: the laws programmes
// reference get the revision in force (metadata and article text), every
// revision seen is kept across syncs, and a drifted answer writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helper.ts';
import { startEgovFake, revision, type FakeLaw } from '../fakes/egov-server.ts';
import { syncEgov } from '../../src/sources/egov/sync.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { catalogPath } from '../../src/ingest/ingest.ts';
import { activeOverlayDirs } from '../../src/ingest/overlays.ts';
import { recordingProgress, syncConfig } from './fixture.ts';

const TEKISEIKA = '330AC0000000179';
const CHUSHO = '338AC0000000154';

function laws(): FakeLaw[] {
  return [
    {
      law_id: TEKISEIKA,
      law_num: '昭和三十年法律第百七十九号',
      revisions: [
        revision(TEKISEIKA, '20250601000000_20250601', '補助金等に係る予算の執行の適正化に関する法律', '2025-06-01', 'CurrentEnforced'),
        revision(TEKISEIKA, '20020101000000_20021213', '補助金等に係る予算の執行の適正化に関する法律', '2002-12-13', 'PreviousEnforced'),
      ],
      articles: [
        ['第一条', '（この法律の目的）', 'この法律は、新しい本文である。'],
        ['第二条', '（定義）', '新しい定義。'],
        ['第三条', '（関係者の責務）', '新しい条。'],
      ],
    },
    {
      law_id: CHUSHO,
      law_num: '昭和三十八年法律第百五十四号',
      revisions: [revision(CHUSHO, '20240401000000_20240401', '中小企業基本法', '2024-04-01', 'CurrentEnforced')],
      articles: [['第一条', '（目的）', 'この法律は、中小企業に関する施策について基本理念を定める。']],
    },
  ];
}

test('sync egov refreshes referenced laws, replaces their article text and keeps every revision', async (t) => {
  const dataDir = tempDir(t);
  const fake = await startEgovFake(laws(), { rateLimitFirst: 1, failOnce: [`/api/2/law_data/${CHUSHO}`] });
  t.after(() => fake.close());
  const config = syncConfig(dataDir, { EGOV_API_BASE: fake.base });
  // Another source's published overlay stays in the catalogue e-Gov publishes.
  const jgrants = path.join(dataDir, 'sources', 'jgrants');
  mkdirSync(path.join(jgrants, 'versions', 'v1'), { recursive: true });
  writeFileSync(
    path.join(jgrants, 'versions', 'v1', 'programs.jsonl'),
    `${JSON.stringify({ _overlay: 'enrich', unified_id: 'UNI-t0000006', amount_max_man_yen: 800 })}\n`,
  );
  writeFileSync(path.join(jgrants, 'current'), 'v1\n');
  const first = await syncEgov({ config, recordChanges: true, progress: recordingProgress(), backoffMs: 1 });
  assert.equal(first.exitCode, 0, JSON.stringify(first.report, null, 2));
  assert.equal(first.report.counts.laws, 2, 'the two laws programmes reference, not the unreferenced one');
  assert.equal(fake.requests.filter((r) => r.startsWith(`/api/2/law_data/${CHUSHO}`)).length, 2, 'the 500 was retried');

  let catalog = new Catalog(catalogPath(dataDir));
  const law = catalog.db.get<Record<string, any>>("SELECT * FROM laws WHERE law_slug = 'hojokin-tekiseika'")!;
  assert.equal(law.last_amended_on, '2025-06-01');
  assert.equal(law.law_number, '昭和三十年法律第百七十九号');
  const articles = catalog.db.all<{ seq: number; article_label: string; caption: string; text: string }>(
    "SELECT seq, article_label, caption, text FROM law_articles WHERE law_slug = 'hojokin-tekiseika' ORDER BY seq",
  );
  assert.deepEqual(
    articles.map((a) => a.article_label),
    ['第一条', '第二条', '第三条'],
    'the old two articles are replaced by the three in force',
  );
  assert.equal(articles[0].caption, '（この法律の目的）');
  assert.match(articles[0].text, /新しい本文/);
  assert.equal(catalog.db.get<{ n: number }>("SELECT count(*) AS n FROM law_articles WHERE law_slug = 'chusho-kihon'")!.n, 1);
  assert.equal(catalog.db.get<{ v: number }>("SELECT amount_max_man_yen AS v FROM programs WHERE unified_id = 'UNI-t0000006'")!.v, 800);
  catalog.close();

  // A new revision is announced: the sync keeps the ones it saw before.
  fake.laws = laws().map((l) =>
    l.law_id !== TEKISEIKA
      ? l
      : {
          ...l,
          revisions: [
            revision(TEKISEIKA, '20270401000000_20270401', l.revisions[0].law_title as string, '2027-04-01', 'UnEnforced'),
            ...l.revisions.slice(0, 1),
          ],
        },
  );
  const second = await syncEgov({ config, recordChanges: true, progress: recordingProgress(), backoffMs: 1 });
  assert.equal(second.exitCode, 0, JSON.stringify(second.report, null, 2));
  assert.equal(second.report.counts.new_revisions, 1);
  const dir = activeOverlayDirs(dataDir).find((d) => d.includes(`${path.sep}egov${path.sep}`))!;
  const kept = readFileSync(path.join(dir, 'law_revisions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const ids = kept
    .filter((r) => r.egov_law_id === TEKISEIKA)
    .map((r) => r.amendment_enforcement_date)
    .sort();
  assert.deepEqual(ids, ['2002-12-13', '2025-06-01', '2027-04-01'], 'the 2002 revision, no longer listed, is still on record');
  catalog = new Catalog(catalogPath(dataDir));
  t.after(() => catalog.close());
  assert.equal(
    catalog.db.get<{ v: string }>("SELECT last_amended_on AS v FROM laws WHERE law_slug = 'hojokin-tekiseika'")!.v,
    '2025-06-01',
    'the revision in force, not the announced one',
  );
});

test('a drifted e-Gov answer stops sync egov with exit 3 and writes nothing', async (t) => {
  const dataDir = tempDir(t);
  const drifted = laws();
  drifted[1].lawDataOverride = { law_info: { law_id: CHUSHO }, revision_info: { law_title: 42 }, law_full_text: '<Law/>' };
  const fake = await startEgovFake(drifted);
  t.after(() => fake.close());
  const { exitCode, report } = await syncEgov({
    config: syncConfig(dataDir, { EGOV_API_BASE: fake.base }),
    recordChanges: false,
    progress: recordingProgress(),
    backoffMs: 1,
  });
  assert.equal(exitCode, 3);
  assert.equal(report.status, 'drift');
  assert.match(report.errors[0].reasons[0], /revision_info\.law_revision_id missing/);
  assert.match(report.errors[0].reasons[0], /law_full_text is not an element/);
  assert.equal(existsSync(path.join(dataDir, 'sources', 'egov', 'current')), false);
});
