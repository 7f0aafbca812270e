// A programme's importance (src/ingest/importance.ts): points for facts
// other than the completeness its tier grades, stored at ingest with their
// provenance and read by ranking as one prior.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importancePoints } from '../../src/ingest/importance.ts';
import { body, build, testCatalog } from '../helper.ts';

test('points: several records, a citing law or enforcement record, branches served as programmes of their own', () => {
  assert.deepEqual(importancePoints({ records: 1, mentions: 0, courses: 0 }), []);
  assert.deepEqual(importancePoints({ records: 2, mentions: 0, courses: 0 }), ['records']);
  assert.deepEqual(importancePoints({ records: 1, mentions: 3, courses: 1 }), ['mentions'], 'one branch is not a family');
  assert.deepEqual(importancePoints({ records: 5, mentions: 1, courses: 4 }), ['records', 'mentions', 'courses']);
});

test('a programme whose courses are served as programmes of their own has the courses point (decision 0327)', async () => {
  const { db } = await testCatalog();
  for (const name of ['人材確保等支援助成金', 'キャリアアップ助成金', '両立支援等助成金']) {
    const row = db.all<{ how: string | null }>(
      "SELECT json_extract(provenance, '$.importance') AS how FROM programs WHERE primary_name = ? AND canonical_id IS NULL AND excluded = 0",
      name,
    )[0];
    assert.match(row?.how ?? '', /courses/, name);
  }
  const course = db.all<{ how: string | null }>(
    "SELECT json_extract(provenance, '$.importance') AS how FROM programs WHERE primary_name = '人材確保等支援助成金（テレワークコース）' AND canonical_id IS NULL",
  )[0];
  assert.doesNotMatch(course?.how ?? '', /courses/, 'a course is not a family of its own');
});

test('the built catalogue: every record with importance names its points in provenance; the records of one programme agree', async () => {
  const { db } = await testCatalog();
  const rows = db.all<{ unified_id: string; importance: number; how: string | null; dup_group: number }>(
    "SELECT unified_id, importance, json_extract(provenance, '$.importance') AS how, dup_group FROM programs",
  );
  const byGroup = new Map<number, number>();
  for (const r of rows) {
    if (r.importance === 0) {
      assert.equal(r.how, null, r.unified_id);
    } else {
      assert.match(r.how ?? '', /^derived:importance:(records|mentions|courses)(\+(records|mentions|courses))*$/, r.unified_id);
      assert.equal(r.how!.split(':')[2].split('+').length, r.importance, r.unified_id);
    }
    const seen = byGroup.get(r.dup_group);
    if (seen === undefined) byGroup.set(r.dup_group, r.importance);
    else assert.equal(r.importance, seen, `${r.unified_id}: its programme's importance`);
  }
  const served = db.all<{ importance: number; n: number }>(
    'SELECT importance, count(*) AS n FROM programs WHERE canonical_id IS NULL AND excluded = 0 GROUP BY importance ORDER BY importance',
  );
  const total = served.reduce((s, r) => s + r.n, 0);
  const some = served.filter((r) => r.importance > 0).reduce((s, r) => s + r.n, 0);
  // Most programmes are single thin records: the signal separates a minority (a quarter when this was written).
  assert.ok(some / total > 0.15 && some / total < 0.5, `${some} of ${total} served programmes have a point`);
});

test('a flagship national programme at tier C has importance, and a broad search of its field shows it on the first page', async (t) => {
  const { db } = await testCatalog();
  const row = db.all<{ unified_id: string; tier: string; importance: number }>(
    "SELECT unified_id, tier, importance FROM programs WHERE primary_name = '雇用調整助成金' AND canonical_id IS NULL",
  )[0];
  assert.equal(row.tier, 'C', 'upstream grades its record C (thin)');
  assert.ok(row.importance >= 2, 'several records and cited by enforcement records');
  const app = await build(t);
  const res = body<{ results: { unified_id: string }[] }>(await app.inject(`/v1/programs/search?q=${encodeURIComponent('雇用 助成金')}&limit=10`));
  const at = res.results.findIndex((r) => r.unified_id === row.unified_id);
  t.diagnostic(`雇用 助成金: 雇用調整助成金 at ${at + 1}`);
  assert.ok(at >= 0, 'on the first page among the other employment subsidies, most of them tier B');
});
