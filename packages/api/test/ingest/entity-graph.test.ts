// The entity-graph build: made from the catalogue's typed tables in the same
// ingest (a line the typed loader rejects never reaches the graph), with the
// counts docs/data.md states for the bundled dataset, and a fingerprint that
// covers every module the build reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ingest } from '../../src/ingest/ingest.ts';
import { catalogSourceFiles } from '../../src/ingest/fingerprint.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { ENTITY_GRAPH_BUILD_FILES } from '../../src/ingest/entity-graph/index.ts';
import { tempDir, testCatalog } from '../helper.ts';
import { importGraph, REPO_ROOT } from '../architecture/import-graph.ts';

const VALID_HB = '3260001025496';
const INVALID_HB = '4260001025496';

function writeDataset(dir: string, files: Record<string, Record<string, unknown>[]>): void {
  for (const [name, records] of Object.entries(files)) {
    writeFileSync(path.join(dir, `${name}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  }
}

test('the graph is built from the typed tables: entities, facts, provenance, relations', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  writeDataset(src, {
    programs: [
      {
        unified_id: 'UNI-p1',
        primary_name: 'ものづくり設備導入支援事業補助金',
        authority_name: '経済産業省',
        prefecture: null,
        tier: 'A',
        slug: 'monozukuri-aaaaaa',
        name_as_published: 'PREF-01-001_ものづくり設備導入支援事業補助金',
        source_last_check_status: 200,
        source_url: 'https://example.go.jp/p1',
        application_window: { start: '2026-04-01', end: '2026-06-30' },
        _provenance: { primary_name: 'llms', tier: 'sitemap', authority_name: 'rss_pref' },
      },
      { unified_id: 'UNI-c1', primary_name: '経営革新計画の承認', program_kind_group: 'certification', tier: 'B', _provenance: { primary_name: 'idx' } },
    ],
    exclusion_rules: [
      {
        rule_id: 'r1',
        kind: 'absolute',
        kind_normalized: 'mutex',
        severity: 'critical',
        program_a: 'monozukuri',
        program_a_name: 'ものづくり設備導入支援事業補助金',
        program_a_uid_candidates: ['UNI-p1'],
        program_b: 'kakushin',
        program_b_name: '経営革新計画の承認',
        program_b_uid_candidates: ['UNI-c1'],
        description: 'a × b',
        source_urls: ['https://example.go.jp'],
      },
    ],
    laws: [{ law_slug: 'chusho-kihon', law_id: 'LAW-0000000001', title: '中小企業基本法', status: 'active', source_url: 'https://elaws.e-gov.go.jp/x' }],
    law_articles: [
      {
        law_slug: 'chusho-kihon',
        law_id: 'LAW-0000000001',
        article_key: '2',
        article_label: '第二条',
        seq: 1,
        caption: '（定義）',
        is_supplementary: false,
        text: '（定義）この法律に基づいて…',
      },
    ],
    program_law_refs: [{ law_slug: 'chusho-kihon', law_id: 'LAW-0000000001', unified_id: 'UNI-p1', law_title: '中小企業基本法', derived_by: null }],
    tax_rulesets: [
      {
        unified_id: 'TAX-00000000aa',
        ruleset_name: '中小企業投資促進税制',
        tax_category: 'corporate',
        ruleset_kind: 'credit',
        legal_basis: ['中小企業基本法第2条'],
        source_url: 'https://www.nta.go.jp/x',
        authority: '国税庁',
        _source: 'seed',
      },
    ],
    enforcement: [
      {
        enforcement_id: 'enf-1',
        source_family: 'corporate_action',
        title: '業務改善命令',
        target_name: '株式会社テスト',
        houjin_bangou: VALID_HB,
        authority: '金融庁',
        source_url: 'https://www.fsa.go.jp/x',
        related_laws: [{ law_name: '中小企業基本法', law_slug: 'chusho-kihon' }],
        exclusion_start: '2025-01-01',
        exclusion_end: '2027-01-01',
      },
      // The typed loader rejects a corporate number failing the check digit: the graph never sees this record.
      { enforcement_id: 'enf-2', source_family: 'corporate_action', title: '処分', houjin_bangou: INVALID_HB, source_url: 'https://www.fsa.go.jp/y' },
    ],
    case_studies: [
      {
        case_id: 'case-1',
        title: 'ものづくり設備導入支援事業補助金で新工場',
        company_name: '株式会社テスト',
        houjin_bangou: VALID_HB,
        source_url: 'https://mirasapo-plus.go.jp/x',
      },
    ],
  });
  const report = await ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out });
  assert.deepEqual(
    report.rejected.map((r) => `${r.file}:${r.lineNo}`),
    ['enforcement.jsonl:2'],
  );
  const db = new DatabaseSync(report.catalogPath, { readOnly: true });
  t.after(() => db.close());

  const kinds = Object.fromEntries(
    (db.prepare('SELECT entity_id, record_kind FROM am_entities').all() as { entity_id: string; record_kind: string }[]).map((r) => [
      r.entity_id,
      r.record_kind,
    ]),
  );
  assert.deepEqual(kinds, {
    'UNI-p1': 'program',
    'UNI-c1': 'certification',
    'TAX-00000000aa': 'tax_measure',
    'LAW-0000000001': 'law',
    'enf-1': 'enforcement',
    'case-1': 'case_study',
    [`HB-${VALID_HB}`]: 'corporate_entity',
    [(db.prepare("SELECT entity_id FROM am_entities WHERE name = '経済産業省'").get() as { entity_id: string }).entity_id]: 'authority',
    [(db.prepare("SELECT entity_id FROM am_entities WHERE name = '金融庁'").get() as { entity_id: string }).entity_id]: 'authority',
  });
  assert.equal(report.counts.am_entities, Object.keys(kinds).length);

  // A program's facts keep the dataset's fields (those the typed table alone does not serve included), in its order.
  const p1 = db.prepare("SELECT facts, provenance, valid_from, valid_until, tier FROM am_entities WHERE entity_id = 'UNI-p1'").get() as Record<string, string>;
  const facts = JSON.parse(p1.facts) as Record<string, unknown>;
  assert.deepEqual(Object.keys(facts), [
    'unified_id',
    'primary_name',
    'authority_level',
    'authority_name',
    'program_kind',
    'tier',
    'excluded',
    'target_types',
    'funding_purpose',
    'application_window',
    'source_url',
    'source_last_check_status',
    'name_as_published',
    'slug',
    'jsic_majors',
  ]);
  assert.equal(facts.name_as_published, 'PREF-01-001_ものづくり設備導入支援事業補助金');
  assert.equal(facts.program_kind, 'subsidy', 'the kind ingest derived from the name (classify.ts)');
  assert.equal(facts.source_last_check_status, 200);
  assert.deepEqual(JSON.parse(p1.provenance), {
    primary_name: 'llms',
    tier: 'sitemap',
    authority_name: 'rss_pref',
    // What ingest derived (authority-level.ts, classify.ts, tagging.ts) says so.
    authority_level: 'derived:national_domain',
    program_kind: 'derived:name',
    funding_purpose: 'derived:tagging:name',
    target_types: 'derived:tagging:authority',
    jsic_majors: 'derived:tagging:name',
  });
  assert.deepEqual([p1.valid_from, p1.valid_until, p1.tier], ['2026-04-01', '2026-06-30', 'A']);
  // Internal fields (`_source`) are not facts; JSON columns come back as published.
  const tax = JSON.parse((db.prepare("SELECT facts FROM am_entities WHERE entity_id = 'TAX-00000000aa'").get() as { facts: string }).facts);
  assert.deepEqual(tax.legal_basis, ['中小企業基本法第2条']);
  assert.equal('_source' in tax, false);

  const relations = (db.prepare('SELECT src_id, dst_id, relation FROM am_relations ORDER BY relation, src_id').all() as Record<string, string>[]).map(
    (r) => `${r.src_id} -${r.relation}-> ${r.dst_id}`,
  );
  assert.ok(relations.includes('UNI-p1 -based_on_law-> LAW-0000000001'));
  assert.ok(relations.includes('UNI-p1 -incompatible-> UNI-c1'));
  assert.ok(relations.includes('TAX-00000000aa -based_on_law-> LAW-0000000001'));
  assert.ok(relations.includes('enf-1 -cites_law-> LAW-0000000001'));
  assert.ok(relations.includes(`enf-1 -targets-> HB-${VALID_HB}`));
  assert.ok(relations.includes(`case-1 -features-> HB-${VALID_HB}`));
  assert.ok(relations.includes('case-1 -used_program-> UNI-p1'));
  assert.ok(relations.some((r) => r.startsWith('UNI-p1 -administered_by-> AUTH-')));
  assert.ok(relations.some((r) => r.startsWith('enf-1 -issued_by-> AUTH-')));

  // No copies of catalogue tables: the tools read law_articles, loans_mutual_aid, enums and municipalities.
  const amTables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'am\\_%' ESCAPE '\\'").all() as { name: string }[]).map(
    (r) => r.name,
  );
  assert.deepEqual(amTables.sort(), ['am_entities', 'am_entity_keys', 'am_relations']);
});

test('bundled dataset: the counts docs/data.md and /meta state', async () => {
  const catalog = await testCatalog();
  const db = catalog.db;
  // 26,557 + the 4 reviewed tax rulesets (data/overrides/tax-rulesets.jsonl, decision 0398)
  assert.equal(JSON.parse(db.metaValue('counts') ?? '{}').am_entities, 26_561);
  assert.deepEqual(JSON.parse(db.metaValue('am_entity_counts') ?? '{}'), {
    program: 11_906,
    tax_measure: 54,
    certification: 166,
    law: 9_285,
    enforcement: 1_485,
    case_study: 2_286,
    adoption: 0,
    authority: 706,
    corporate_entity: 673,
    statistic: 0,
    invoice_registrant: 0,
    document: 0,
  });
  // exclusion rules relate side a to side b only, never two programmes of one side (decision 0393)
  // plus 6 based_on_law edges of the reviewed tax rulesets (租税特別措置法 x4, 経営承継円滑化法 x2)
  assert.equal(db.metaValue('am_relation_count'), '11183');
});

test('every module the graph build imports is part of the catalogue fingerprint', () => {
  const { edges } = importGraph();
  const fingerprinted = new Set(catalogSourceFiles(ENTITY_GRAPH_BUILD_FILES).map((f) => path.relative(REPO_ROOT, f)));
  const buildDir = 'packages/api/src/ingest/entity-graph/';
  const missing = [...edges]
    .filter(([file]) => file.startsWith(buildDir))
    .flatMap(([file, targets]) => targets.filter((t) => !fingerprinted.has(t)).map((t) => `${file} -> ${t}`));
  assert.deepEqual(missing, [], 'add these to ENTITY_GRAPH_BUILD_FILES (ingest/entity-graph/index.ts)');
});
