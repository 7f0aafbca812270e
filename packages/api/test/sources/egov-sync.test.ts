// `sync egov` against the local fake of the 法令API v2: the laws programmes
// reference get the revision in force (metadata and article text), every
// revision seen is kept across syncs, and a drifted answer writes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { connectTools } from '../../../mcp/test/fixtures.ts';
import { body, build, tempDir } from '../helper.ts';
import { startEgovFake, revision, type FakeLaw } from '../fakes/egov-server.ts';
import { syncEgov } from '../../src/sources/egov/sync.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { catalogPath } from '../../src/ingest/ingest.ts';
import { activeOverlayDirs } from '../../src/ingest/overlays.ts';
import { recordingProgress, syncConfig, syncEnv as syncConfigEnv } from './fixture.ts';

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
      // The text of the revisions before and after the one in force.
      articlesByRevision: {
        [`${TEKISEIKA}_20020101000000_20021213`]: [['第一条', '（この法律の目的）', 'この法律は、古い本文である。']],
        [`${TEKISEIKA}_20270401000000_20270401`]: [['第一条', '（この法律の目的）', 'この法律は、未来の本文である。']],
      },
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
  assert.equal(second.report.counts.revision_texts, 4, "適正化法's 2002 and 2025 texts kept, its announced 2027 one fetched; 基本法's in force");
  assert.ok(!fake.requests.slice(-4).some((r) => r.includes('20020101000000')), 'a text kept is not fetched again');

  // Served: the revisions, and an article as in force on a date.
  const app = await build(t, syncConfigEnv(dataDir), {}, { catalog });
  const revisions = body<{ total: number; results: { law_revision_id: string; enforced_on: string; status: string; article_count: number }[] }>(
    await app.inject('/v1/laws/hojokin-tekiseika/revisions'),
  );
  assert.deepEqual(
    revisions.results.map((r) => [r.enforced_on, r.status, r.article_count]),
    [
      ['2027-04-01', 'UnEnforced', 1],
      ['2025-06-01', 'CurrentEnforced', 3],
      ['2002-12-13', 'PreviousEnforced', 1],
    ],
  );
  const asOf = async (date: string) => app.inject(`/v1/laws/hojokin-tekiseika/articles/1?effective_on=${date}`);
  const old = body<{ text: string; effective_on: string; revision: { enforced_on: string }; attribution: { source: string } }>(await asOf('2010-01-01'));
  assert.match(old.text, /古い本文/);
  assert.equal(old.revision.enforced_on, '2002-12-13');
  assert.equal(old.effective_on, '2010-01-01');
  assert.match(old.attribution.source, /e-Gov/);
  assert.match(body<{ text: string }>(await asOf('2026-01-01')).text, /新しい本文/);
  assert.match(body<{ text: string }>(await asOf('2027-04-01')).text, /未来の本文/, 'in force from its first day');
  assert.match(body<{ text: string }>(await app.inject('/v1/laws/hojokin-tekiseika/articles/1')).text, /新しい本文/, 'without a date: the text in force');
  const before = await asOf('1990-01-01');
  assert.equal(before.statusCode, 404);
  assert.match(body<{ detail: string }>(before).detail, /in force on 1990-01-01/);
  assert.equal((await asOf('2024-02-30')).statusCode, 400);
  assert.equal((await app.inject('/v1/laws/hojokin-tekiseika/articles/9?effective_on=2010-01-01')).statusCode, 404);
  assert.equal(body<{ total: number }>(await app.inject('/v1/laws/chusho-kihon/revisions')).total, 1);

  // The tools: list_law_revisions lists them; get_law_article_am reads an article as of a day.
  const tools = await connectTools(t, new JpSupportClient({ transport: injectTransport(app), maxRetries: 0 }));
  const call = async (name: string, args: Record<string, unknown>) =>
    (await tools.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent: Record<string, any> };
  const listed = await call('list_law_revisions', { unified_id: 'LAW-1c1831a72e' });
  assert.equal(listed.isError, undefined, JSON.stringify(listed.structuredContent));
  assert.equal(listed.structuredContent.results.length, 3);
  assert.match(listed.structuredContent.explanation, /in force: 330AC0000000179_20250601000000_20250601 since 2025-06-01/);
  const tool = await call('get_law_article_am', {
    law_name_or_canonical_id: '補助金等に係る予算の執行の適正化に関する法律',
    article_number: '第1条',
    effective_on: '2010-01-01',
  });
  assert.equal(tool.structuredContent.found, true, JSON.stringify(tool.structuredContent));
  assert.match(tool.structuredContent.text_full, /古い本文/);
  assert.equal(tool.structuredContent.revision.enforced_on, '2002-12-13');
  const tooEarly = await call('get_law_article_am', { law_name_or_canonical_id: 'LAW-1c1831a72e', article_number: '1', effective_on: '1990-01-01' });
  assert.equal(tooEarly.structuredContent.found, false);
  assert.equal(tooEarly.structuredContent.text_full, null, 'never the text in force now for another day');

  // The filled answers match their documented response schemas exactly (no field more or less).
  const doc = body<{ paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>> }>(
    await app.inject('/v1/openapi.json'),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajv.addSchema(
    JSON.parse(JSON.stringify(doc), (_k, v) =>
      v && typeof v === 'object' && v.type === 'object' && v.properties && !('additionalProperties' in v) ? { ...v, additionalProperties: false } : v,
    ),
    'doc',
  );
  for (const [route, url] of [
    ['/v1/laws/{id}/revisions', '/v1/laws/hojokin-tekiseika/revisions'],
    ['/v1/laws/{id}/articles/{art}', '/v1/laws/hojokin-tekiseika/articles/1?effective_on=2010-01-01'],
  ]) {
    const validate = ajv.getSchema(`doc#/paths/${route.replace(/\//g, '~1')}/get/responses/200/content/application~1json/schema`)!;
    assert.ok(validate(body(await app.inject(url))), `${url}: ${JSON.stringify(validate.errors)}`);
  }
});

test('an e-Gov law whose answer has a field of another shape is set aside; the other laws are published', async (t) => {
  const dataDir = tempDir(t);
  const odd = laws();
  // The envelope is right; the title is a number: this law is a bad record, one of two.
  odd[1].revisions = [{ ...odd[1].revisions[0], law_title: 42 }];
  const fake = await startEgovFake(odd);
  t.after(() => fake.close());
  const { exitCode, report } = await syncEgov({
    config: syncConfig(dataDir, { EGOV_API_BASE: fake.base }),
    recordChanges: false,
    progress: recordingProgress(),
    backoffMs: 1,
  });
  assert.equal(exitCode, 0, JSON.stringify(report, null, 2));
  assert.deepEqual(
    report.updated.map((u) => u.egov_law_id),
    [TEKISEIKA],
  );
  assert.equal(report.errors.length, 1);
  assert.equal(report.errors[0].egov_law_id, CHUSHO);
  assert.match(report.errors[0].reasons.join('; '), /law_title: expected string, got number/);
  assert.ok(report.errors[0].raw, 'the raw fragment is in the report');
  assert.deepEqual(report.quarantine, { records: 2, set_aside: 1, share: 0.5, max_share: 0.05 });
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
