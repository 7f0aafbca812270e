// Ranking quality of GET /v1/programs/search on the judged set
// (fixtures/judged_queries.jsonl, 165 queries with graded judgments):
// nDCG@10, precision@10 (grade >= 2 relevant) and the duplicate rate, per
// category and overall. Fails below the floors measured on the bundled data
// (README, "Search"). No timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';
import { judgedSearchQuery, loadJudgedQueries } from './judged.ts';
import { duplicateRows, judgedPrecisionAt10, mean, ndcgAt10, type ResultRow } from './ranking-metrics.ts';
import { programmeIdentity } from './programme-identity.ts';

// Measured: nDCG@10 0.670, precision@10 0.654, duplicate rate 0 (main before this ranking: 0.403, 0.361, 0.046).
const MIN_NDCG_AT_10 = 0.66;
const MIN_PRECISION_AT_10 = 0.64;

test('judged set: nDCG@10, precision@10 and duplicate rate through the HTTP API', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const same = programmeIdentity((await testCatalog()).db);
  const queries = loadJudgedQueries();
  assert.ok(queries.length >= 150);
  const ndcg: number[] = [];
  const precision: (number | null)[] = [];
  const byCategory = new Map<string, number[]>();
  let duplicates = 0;
  let shown = 0;
  for (const q of queries) {
    const res = await app.inject(`/v1/programs/search?${judgedSearchQuery(q.params, 10)}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    const rows = body<{ results: ResultRow[] }>(res).results;
    const n = ndcgAt10(rows, q.judgments, same);
    const p = judgedPrecisionAt10(rows, q.judgments, same);
    ndcg.push(n);
    precision.push(p);
    byCategory.set(q.category, [...(byCategory.get(q.category) ?? []), n]);
    duplicates += duplicateRows(rows, same);
    shown += rows.length;
    t.diagnostic(`${q.id}: nDCG@10=${n.toFixed(2)} p@10=${p?.toFixed(2) ?? 'n/a'} (${q.query})`);
  }
  for (const [category, values] of [...byCategory].sort()) t.diagnostic(`category ${category}: nDCG@10=${mean(values).toFixed(3)} over ${values.length}`);
  const meanNdcg = mean(ndcg);
  const meanPrecision = mean(precision);
  t.diagnostic(
    `judged set: nDCG@10=${meanNdcg.toFixed(3)} precision@10=${meanPrecision.toFixed(3)} duplicate rate=${(duplicates / Math.max(1, shown)).toFixed(3)} over ${queries.length} queries`,
  );
  assert.equal(duplicates, 0, 'no page shows two rows of one programme');
  assert.ok(meanNdcg >= MIN_NDCG_AT_10, `nDCG@10 ${meanNdcg.toFixed(3)} >= ${MIN_NDCG_AT_10}`);
  assert.ok(meanPrecision >= MIN_PRECISION_AT_10, `precision@10 ${meanPrecision.toFixed(3)} >= ${MIN_PRECISION_AT_10}`);
});
