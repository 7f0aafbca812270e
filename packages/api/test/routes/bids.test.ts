// Bids: the optional bids.jsonl of a dataset directory is validated as BidOut
// at ingest (bad lines rejected with line numbers and reasons), counted in
// /meta, and served exactly as BidOut by /v1/bids. (The corporate-number check
// digit the loader applies is tested as a function: test/entity-graph/units.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ingest, type IngestReport } from '../../src/ingest/ingest.ts';
import { typedRecordsLoader } from '../../src/ingest/loaders/typed-records.ts';
import { programsLoader } from '../../src/ingest/loaders/programs.ts';
import { duplicatesLoader } from '../../src/ingest/loaders/duplicates.ts';
import bidsSpec from '../../src/catalog/record-sets/bids.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { body, testCatalogWithBids } from '../helper.ts';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'bids', 'bids.jsonl');
const BID_KEYS = [
  'announcement_date',
  'awarded_amount_yen',
  'bid_deadline',
  'bid_description',
  'bid_kind',
  'bid_title',
  'budget_ceiling_yen',
  'classification_code',
  'confidence',
  'decision_date',
  'eligibility_conditions',
  'fetched_at',
  'ministry',
  'participant_count',
  'prefecture',
  'procuring_entity',
  'procuring_houjin_bangou',
  'program_id_hint',
  'question_deadline',
  'source_checksum',
  'source_excerpt',
  'source_url',
  'unified_id',
  'updated_at',
  'winner_houjin_bangou',
  'winner_name',
];

let work: string;
let report: IngestReport;
let app: FastifyInstance;

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'jpsp-bids-'));
  // The bids loader over the fixture alone: what it loads and what it rejects, line by line. (The
  // programmes' loaders, their files absent, only lay the empty tables every catalogue has.)
  const datasetDir = path.join(work, 'dataset');
  mkdirSync(datasetDir);
  symlinkSync(FIXTURE, path.join(datasetDir, 'bids.jsonl'));
  const plan = { loaders: [...[duplicatesLoader, programsLoader].map((l) => ({ ...l, required: false })), typedRecordsLoader(bidsSpec)], sourceFiles: [] };
  report = await ingest({ plan, datasetDir, dataDir: path.join(work, 'loaded') });
  // Served: the shared catalogue of the bundled dataset plus the same fixture (catalog-fixture.ts).
  app = await buildApp({ config: loadConfig({ DATA_DIR: path.join(work, 'data'), ANON_DAILY_LIMIT: '100000' }), catalog: await testCatalogWithBids() });
});

after(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

test('ingest: good bid lines load, bad ones are rejected with line number and reason', () => {
  assert.equal(report.counts.bids, 2);
  const bids = report.rejected.filter((r) => r.file === 'bids.jsonl');
  const byLine = new Map(bids.map((r) => [r.lineNo, r.reason]));
  assert.deepEqual(
    [...byLine.keys()].sort((a, b) => a - b),
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
  );
  assert.match(byLine.get(3)!, /unified_id/);
  assert.match(byLine.get(4)!, /additional|extra_field/i);
  assert.match(byLine.get(5)!, /procuring_houjin_bangou: check digit/);
  assert.match(byLine.get(6)!, /bid_kind/);
  assert.match(byLine.get(7)!, /fetched_at/);
  assert.match(byLine.get(8)!, /bid_deadline: not a calendar date/);
  assert.match(byLine.get(9)!, /invalid JSON/);
  assert.match(byLine.get(10)!, /duplicate unified_id BID-0a1b2c3d4e/);
  assert.match(byLine.get(11)!, /bid_title/);
  assert.match(byLine.get(12)!, /confidence/);
  assert.match(byLine.get(13)!, /awarded_amount_yen/);
});

test('/meta reports the bids count honestly', async () => {
  const meta = body(await app.inject('/meta'));
  assert.equal(meta.record_counts.bids, 2);
});

test('bid search: exact BidOut rows, every filter, paging', async () => {
  const all = body(await app.inject('/v1/bids/search'));
  assert.equal(all.total, 2);
  assert.deepEqual(Object.keys(all).sort(), ['attribution', 'limit', 'offset', 'results', 'total']);
  for (const row of all.results) assert.deepEqual(Object.keys(row).sort(), BID_KEYS);
  const ids = (qs: string) => async () => body(await app.inject(`/v1/bids/search?${qs}`)).results.map((r: any) => r.unified_id);
  assert.deepEqual(await ids('bid_kind=open')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids('bid_kind=kobo_subsidy')(), ['BID-ffffffffff']);
  assert.equal((await app.inject('/v1/bids/search?bid_kind=auction')).statusCode, 400);
  assert.deepEqual(await ids('procuring_houjin_bangou=6010401117444')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids('winner_houjin_bangou=3260001025496')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids('winner_houjin_bangou=6010401117444')(), []);
  assert.deepEqual(await ids('program_id_hint=UNI-00f985541f')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids('min_amount_yen=5000000')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids('max_amount_yen=5000000')(), ['BID-ffffffffff']);
  assert.equal((await app.inject('/v1/bids/search?min_amount_yen=10&max_amount_yen=1')).statusCode, 400);
  assert.deepEqual(await ids('deadline_after=2026-04-01')(), ['BID-0a1b2c3d4e']);
  assert.deepEqual((await ids('deadline_after=2026-01-01')()).sort(), ['BID-0a1b2c3d4e', 'BID-ffffffffff']);
  assert.deepEqual(await ids(`q=${encodeURIComponent('交付事務')}`)(), ['BID-0a1b2c3d4e']);
  assert.deepEqual(await ids(`q=DX`)(), ['BID-ffffffffff']);
  const paged = body(await app.inject('/v1/bids/search?limit=1&offset=1'));
  assert.equal(paged.total, 2);
  assert.equal(paged.results.length, 1);
  assert.deepEqual(body(await app.inject('/v1/bids/search?offset=5')).results, []);
});

test('bid detail: exact BidOut keys, 404 for unknown ids', async () => {
  const res = await app.inject('/v1/bids/BID-0a1b2c3d4e');
  assert.equal(res.statusCode, 200);
  const bid = body(res);
  assert.deepEqual(Object.keys(bid).sort(), BID_KEYS);
  assert.equal(bid.awarded_amount_yen, 12000000);
  assert.equal(bid.confidence, 0.9);
  assert.equal(bid.bid_description, null);
  assert.equal((await app.inject('/v1/bids/BID-0000000000')).statusCode, 404);
  assert.equal((await app.inject('/v1/bids/BID-0A1B2C3D4E')).statusCode, 404);
});

test('the published schema of a bid forbids additional properties', async () => {
  const doc = body(await app.inject('/v1/openapi.json'));
  const text = JSON.stringify(doc);
  assert.ok(text.includes('/v1/bids/search') && text.includes('/v1/bids/{unified_id}'));
  const op = doc.paths['/v1/bids/{unified_id}'].get;
  const schema = op.responses['200'].content['application/json'].schema;
  const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
  assert.equal(resolved.additionalProperties, false);
});
