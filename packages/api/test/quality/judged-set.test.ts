// The judged query set is well-formed data: enough queries, and enough of
// each category issue 21 asks for, unique ids, every judged programme in
// the catalogue, grades 0..3, a relevant answer for each query that is not
// marked hard, pools of at least 40 judged candidates for the queries of
// issue 21, one grade per duplicate group, the held-out marks exactly the
// seeded draw, and parameters the search endpoint accepts. It checks the
// file only; ranking quality on this set is measured elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, testCatalog } from '../helper.ts';
import { getProgramRows } from '../../src/catalog/programs/records.ts';
import { holdoutDraw, judgedSearchQuery, loadJudgedQueries } from './judged.ts';

const MIN_QUERIES = 250;
// Issue 21: everyday situations, industry words, English or mixed queries.
const MIN_PER_CATEGORY: Record<string, number> = { conversational: 40, industry: 40, english: 25 };
// Queries added for issue 21 (jq-166 on) pool at least this many judged candidates.
const FIRST_ISSUE_21_QUERY = 166;
const MIN_POOL = 40;
const MAX_HARD = 5;
const ID_PATTERN = /^jq-\d{3}-[a-z0-9-]+$/;

const queries = loadJudgedQueries();

test('judged set: enough queries with unique ids and the documented fields', () => {
  assert.ok(queries.length >= MIN_QUERIES, `${queries.length} queries >= ${MIN_QUERIES}`);
  const ids = queries.map((q) => q.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const q of queries) {
    assert.match(q.id, ID_PATTERN, `${q.id}: id shape`);
    assert.ok(q.query.trim() !== '', `${q.id}: query text`);
    assert.equal(typeof q.params.q, 'string', `${q.id}: params.q is the free text`);
    assert.ok(q.need.trim() !== '', `${q.id}: need`);
    assert.ok(q.category.trim() !== '', `${q.id}: category`);
    assert.ok(q.hard === undefined || q.hard === true, `${q.id}: hard is true or absent`);
    assert.equal(typeof q.pool, 'string', `${q.id}: pool arguments recorded`);
  }
  assert.ok(queries.filter((q) => q.hard).length <= MAX_HARD, `at most ${MAX_HARD} hard queries`);
  for (const [category, min] of Object.entries(MIN_PER_CATEGORY)) {
    const n = queries.filter((q) => q.category === category).length;
    assert.ok(n >= min, `${n} ${category} queries >= ${min}`);
  }
  for (const q of queries.filter((q) => Number(q.id.slice(3, 6)) >= FIRST_ISSUE_21_QUERY)) {
    assert.ok(Object.keys(q.judgments).length >= MIN_POOL, `${q.id}: ${Object.keys(q.judgments).length} judged candidates >= ${MIN_POOL}`);
  }
});

test('judged set: the held-out queries are exactly the seeded draw', () => {
  const drawn = holdoutDraw(queries);
  const marked = new Set(queries.filter((q) => q.holdout).map((q) => q.id));
  assert.ok(
    queries.every((q) => q.holdout === undefined || q.holdout === true),
    'holdout is true or absent',
  );
  assert.deepEqual([...marked].sort(), [...drawn].sort());
  const share = marked.size / queries.length;
  assert.ok(share > 0.25 && share < 0.35, `held-out share ${share.toFixed(3)} is about 30 %`);
});

test('judged set: grades are 0..3 and every query that is not hard has a relevant programme', () => {
  for (const q of queries) {
    const grades = Object.values(q.judgments);
    assert.ok(grades.length > 0, `${q.id}: has judgments`);
    for (const g of grades) assert.ok(Number.isInteger(g) && g >= 0 && g <= 3, `${q.id}: grade ${g} in 0..3`);
    if (!q.hard)
      assert.ok(
        grades.some((g) => g >= 2),
        `${q.id}: at least one grade >= 2`,
      );
  }
});

test('judged set: every judged programme exists in the test catalogue', async () => {
  const catalog = await testCatalog();
  const judged = [...new Set(queries.flatMap((q) => Object.keys(q.judgments)))];
  const found = getProgramRows(catalog.db, judged);
  const missing = judged.filter((id) => !found.has(id));
  assert.deepEqual(missing, [], 'no judged id is missing from the catalogue');
});

test('judged set: members of one duplicate group judged in a query share its grade', async () => {
  const catalog = await testCatalog();
  const groups = catalog.db.all<{ group_id: number; unified_ids: string }>('SELECT group_id, unified_ids FROM program_duplicates');
  const conflicts: string[] = [];
  for (const q of queries) {
    for (const g of groups) {
      const grades = new Set((JSON.parse(g.unified_ids) as string[]).filter((id) => id in q.judgments).map((id) => q.judgments[id]));
      if (grades.size > 1) conflicts.push(`${q.id}: group ${g.group_id} graded ${[...grades].join('/')}`);
    }
  }
  assert.deepEqual(conflicts, []);
});

test("judged set: every query's parameters are accepted by GET /v1/programs/search", async (t) => {
  // One anonymous request per query, more than the default daily allowance.
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  for (const q of queries) {
    const res = await app.inject(`/v1/programs/search?${judgedSearchQuery(q.params)}`);
    assert.equal(res.statusCode, 200, `${q.id}: ${res.body.slice(0, 200)}`);
  }
});
