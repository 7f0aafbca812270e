// Search quality of GET /v1/programs/search over the upstream gold queries
// (tool search_programs). Prints precision@10 and recall per query and fails
// when the mean precision@10 drops below the figure stated in the README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { loadEvalQueries, mean, programSearchQuery, score } from './eval.ts';

// The README's figure (measured 0.529 with bm25 ranking on the bundled data).
const MIN_MEAN_PRECISION_AT_10 = 0.52;
const MIN_MEAN_RECALL = 0.7;

test('search_programs gold queries: precision@10 and recall through the HTTP API', async (t) => {
  const app = await build(t);
  const queries = loadEvalQueries('search_programs');
  assert.ok(queries.length >= 20, 'the fixture holds the search_programs queries');
  const scores = [];
  for (const q of queries) {
    const res = await app.inject(`/v1/programs/search?${programSearchQuery(q.tool_args)}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    const ids = body<{ results: { unified_id: string }[] }>(res).results.map((r) => r.unified_id);
    const s = score(q, ids);
    assert.deepEqual(s.forbiddenReturned, [], `${q.id} returns no forbidden id`);
    scores.push(s);
    t.diagnostic(`${q.id}: p@10=${s.precisionAt10?.toFixed(2) ?? 'n/a'} recall=${s.recall?.toFixed(2) ?? 'n/a'} returned=${s.returned}`);
  }
  const p10 = mean(scores.map((s) => s.precisionAt10));
  const recall = mean(scores.map((s) => s.recall));
  t.diagnostic(`mean precision@10=${p10.toFixed(3)} mean recall=${recall.toFixed(3)} over ${scores.filter((s) => s.precisionAt10 !== null).length} queries`);
  assert.ok(p10 >= MIN_MEAN_PRECISION_AT_10, `mean precision@10 ${p10.toFixed(3)} >= ${MIN_MEAN_PRECISION_AT_10}`);
  assert.ok(recall >= MIN_MEAN_RECALL, `mean recall ${recall.toFixed(3)} >= ${MIN_MEAN_RECALL}`);
});
