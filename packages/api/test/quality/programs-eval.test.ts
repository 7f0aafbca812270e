// Search quality of GET /v1/programs/search over the upstream gold queries
// (tool search_programs). Prints precision@10 and recall per query and the
// duplicate rate, and fails when the mean precision@10 drops below the figure
// stated in the README. Rows are read in the default shape so that the
// records collapsed into a row (also_listed_as) count where the row stands
// (ranking-metrics.ts#shownIds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';
import { loadEvalQueries, mean, programSearchQuery, score } from './eval.ts';
import { duplicateRows, shownIds, type ResultRow } from './ranking-metrics.ts';
import { programmeIdentity } from './programme-identity.ts';

// Measured on the bundled data (README, "Search"): 0.542 with the ranking of
// catalog/search (0.529 with plain bm25 before it); recall 0.755.
const MIN_MEAN_PRECISION_AT_10 = 0.54;
const MIN_MEAN_RECALL = 0.7;

test('search_programs gold queries: precision@10 and recall through the HTTP API', async (t) => {
  const app = await build(t);
  const same = programmeIdentity((await testCatalog()).db);
  const queries = loadEvalQueries('search_programs');
  assert.ok(queries.length >= 20, 'the fixture holds the search_programs queries');
  const scores = [];
  let duplicates = 0;
  let shown = 0;
  for (const q of queries) {
    const res = await app.inject(`/v1/programs/search?${programSearchQuery(q.tool_args).replace('fields=minimal', 'fields=default')}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    const rows = body<{ results: ResultRow[] }>(res).results;
    duplicates += duplicateRows(rows, same);
    shown += Math.min(10, rows.length);
    const s = score(q, shownIds(rows));
    assert.deepEqual(s.forbiddenReturned, [], `${q.id} returns no forbidden id`);
    scores.push(s);
    t.diagnostic(`${q.id}: p@10=${s.precisionAt10?.toFixed(2) ?? 'n/a'} recall=${s.recall?.toFixed(2) ?? 'n/a'} returned=${s.returned}`);
  }
  const p10 = mean(scores.map((s) => s.precisionAt10));
  const recall = mean(scores.map((s) => s.recall));
  t.diagnostic(`mean precision@10=${p10.toFixed(3)} mean recall=${recall.toFixed(3)} over ${scores.filter((s) => s.precisionAt10 !== null).length} queries`);
  t.diagnostic(`duplicate rate (rows of a programme already shown, first 10) = ${(duplicates / Math.max(1, shown)).toFixed(3)}`);
  assert.equal(duplicates, 0, 'no page shows two rows of one programme');
  assert.ok(p10 >= MIN_MEAN_PRECISION_AT_10, `mean precision@10 ${p10.toFixed(3)} >= ${MIN_MEAN_PRECISION_AT_10}`);
  assert.ok(recall >= MIN_MEAN_RECALL, `mean recall ${recall.toFixed(3)} >= ${MIN_MEAN_RECALL}`);
});
