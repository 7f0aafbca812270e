// Adding a record set is one spec plus its data: a tiny spec written here and
// a JSONL file in a temporary dataset directory (neither shipped) give a
// catalogue table with its trigram index and working search and detail
// routes, documented in the OpenAPI document, without any other code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { defineRecordSet } from '../../src/catalog/record-sets/spec.ts';
import { Str, Int } from '../../src/catalog/record-sets/fields.ts';
import { RECORD_SETS } from '../../src/catalog/record-sets/index.ts';
import { Short } from '../../src/catalog/record-sets/params.ts';
import { ingest, type IngestReport } from '../../src/ingest/ingest.ts';
import { catalogPlan } from '../../src/ingest/plan.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { body } from '../helper.ts';

const awards = defineRecordSet({
  name: 'awards',
  label: 'Award',
  table: 'awards',
  file: 'awards',
  idField: 'award_id',
  schema: Type.Object({
    award_id: Type.String({ pattern: '^AW-[0-9]+$' }),
    program_name: Type.String({ minLength: 1 }),
    recipient: Str,
    prefecture: Str,
    amount_yen: Int,
  }),
  columns: { award_id: 'text', program_name: 'text', recipient: 'text', prefecture: 'text', amount_yen: 'int' },
  unique: ['award_id'],
  searchable: { program_name: { weight: 10, short: true }, recipient: { weight: 1, short: true } },
  row: { $id: 'Award' },
  search: {
    operationId: 'searchAwards',
    summary: 'Search awards',
    responseId: 'AwardSearchResponse',
    filters: [
      { name: 'prefecture', type: Short('Exact prefecture name'), sql: 'r.prefecture = ?' },
      { name: 'min_amount_yen', aliases: ['amount_from'], type: Type.Integer({ minimum: 0 }), sql: 'r.amount_yen >= ?' },
    ],
    order: 'r.amount_yen DESC, r.award_id',
  },
  detail: { operationId: 'getAward', summary: 'One award', keys: ['award_id'] },
});

const LINES = [
  { award_id: 'AW-1', program_name: 'ものづくり補助金', recipient: '株式会社サンプル', prefecture: '東京都', amount_yen: 10_000_000 },
  { award_id: 'AW-2', program_name: 'IT導入補助金', recipient: '合同会社テスト', prefecture: '大阪府', amount_yen: 3_000_000 },
  { award_id: 'AW-3', program_name: '事業再構築補助金', recipient: null, prefecture: '東京都', amount_yen: 50_000_000 },
  { award_id: 'bad id', program_name: 'x' },
];

let work: string;
let report: IngestReport;
let catalog: Catalog;
let app: FastifyInstance;

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'jpsp-add-set-'));
  const datasetDir = path.join(work, 'dataset');
  mkdirSync(datasetDir);
  // The two files every catalogue needs may be empty; the new set's file is its data.
  writeFileSync(path.join(datasetDir, 'programs.jsonl'), '');
  writeFileSync(path.join(datasetDir, 'exclusion_rules.jsonl'), '');
  writeFileSync(path.join(datasetDir, 'awards.jsonl'), LINES.map((l) => JSON.stringify(l)).join('\n'));
  const recordSets = [...RECORD_SETS, awards];
  report = await ingest({ datasetDir, dataDir: path.join(work, 'data'), plan: catalogPlan(recordSets) });
  catalog = new Catalog(report.catalogPath);
  app = await buildApp({ config: loadConfig({ DATA_DIR: path.join(work, 'data'), ANON_DAILY_LIMIT: '1000' }), catalog, recordSets });
});

after(async () => {
  await app?.close();
  catalog?.close();
  rmSync(work, { recursive: true, force: true });
});

test('ingest loads the new set from its file and rejects a line its schema refuses', () => {
  assert.equal(report.counts.awards, 3);
  assert.deepEqual(
    report.rejected.map((r) => [r.file, r.lineNo]),
    [['awards.jsonl', 4]],
  );
});

test('search: free text, filters, aliases and order from the spec', async () => {
  const all = body(await app.inject('/v1/awards/search'));
  assert.equal(all.total, 3);
  assert.deepEqual(
    all.results.map((r: any) => r.award_id),
    ['AW-3', 'AW-1', 'AW-2'],
    'the spec order: largest amount first',
  );
  assert.deepEqual(Object.keys(all.results[0]), ['award_id', 'program_name', 'recipient', 'prefecture', 'amount_yen']);
  const ids = async (qs: string) => body(await app.inject(`/v1/awards/search?${qs}`)).results.map((r: any) => r.award_id);
  assert.deepEqual(await ids(`q=${encodeURIComponent('ものづくり')}`), ['AW-1']);
  assert.deepEqual(await ids(`q=IT`), ['AW-2'], 'a 2-character term is a substring match');
  assert.deepEqual(await ids(`prefecture=${encodeURIComponent('東京都')}`), ['AW-3', 'AW-1']);
  assert.deepEqual(await ids('min_amount_yen=5000000'), ['AW-3', 'AW-1']);
  assert.deepEqual(await ids('amount_from=20000000'), ['AW-3']);
  assert.equal((await app.inject('/v1/awards/search?min_amount_yen=-1')).statusCode, 400);
  assert.equal((await app.inject('/v1/awards/search?colour=red')).statusCode, 400);
});

test('detail by the spec key, 404 naming the record kind', async () => {
  const one = await app.inject('/v1/awards/AW-2');
  assert.equal(one.statusCode, 200);
  assert.equal(body(one).recipient, '合同会社テスト');
  assert.equal(typeof body(one).attribution, 'object');
  const missing = await app.inject('/v1/awards/AW-9');
  assert.equal(missing.statusCode, 404);
  assert.equal(body(missing).detail, 'Award not found: AW-9');
});

test('the OpenAPI document shows the new operations and row schema', async () => {
  const doc = body(await app.inject('/v1/openapi.json'));
  assert.equal(doc.paths['/v1/awards/search'].get.operationId, 'searchAwards');
  assert.equal(doc.paths['/v1/awards/{id}'].get.operationId, 'getAward');
  const names = doc.paths['/v1/awards/search'].get.parameters.map((p: any) => p.name);
  assert.deepEqual(
    names,
    ['q', 'prefecture', 'min_amount_yen', 'amount_from', 'limit', 'offset', 'format', 'max_rows'],
    'the filters, paging and the export parameters every record-set search has',
  );
});

test("the service's own sets are still served from the same catalogue (empty here)", async () => {
  assert.equal(body(await app.inject('/v1/loans/search')).total, 0);
});
