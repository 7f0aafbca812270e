// Search quality of GET /v1/programs/search over the upstream gold queries
// (tool search_programs). Prints precision@10 and recall per query and the
// duplicate rate, and fails when the mean precision@10 drops below the figure
// stated in docs/data.md ("Search quality"). Rows are read in the full shape so that the
// records merged into a programme at ingest (also_listed_as) count where the row stands
// (ranking-metrics.ts#shownIds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';
import { loadEvalQueries, mean, programSearchQuery, score } from './eval.ts';
import { duplicateRows, shownIds, type ResultRow } from './ranking-metrics.ts';
import { programmeIdentity } from './programme-identity.ts';
import { isContractOrdered, textQueryReach, type GoldRecord } from './gold-ceiling.ts';

// Measured on the bundled data (docs/data.md, "Search quality"): 0.542 with the ranking of
// catalog/search (0.529 with plain bm25 before it); recall 0.755. The best
// any ranking could reach over this catalogue is printed too (0.692,
// gold-ceiling.ts). Since ingest fills purposes (issue 20, ingest/tagging.ts)
// 0.036 lower (0.578 -> 0.534 with the record classifier), the whole fall from
// one query: mfg_003 filters funding_purpose=設備投資 without q, so the
// contract's order decides, and its gold is the 13 records upstream had
// tagged, among 115 tagged now (its ceiling 1.0 -> 0.2); no other query moved.
const MIN_MEAN_PRECISION_AT_10 = 0.5;
const MIN_MEAN_RECALL = 0.7;

test('search_programs gold queries: precision@10 and recall through the HTTP API', async (t) => {
  const app = await build(t);
  const { db } = await testCatalog();
  const same = programmeIdentity(db);
  // Gold ids the catalogue holds as pages beside programmes (ingest/classify.ts, decision 0300: an index page, a
  // form, "page top" …) are tier X and never on a default page, so no ranking shows them; the floors hold the
  // gold without them, and the figures over the whole gold are printed beside.
  const pages = new Set(db.all<{ unified_id: string }>("SELECT unified_id FROM programs WHERE record_class <> 'programme'").map((r) => r.unified_id));
  const rawScores = [];
  const queries = loadEvalQueries('search_programs');
  assert.ok(queries.length >= 20, 'the fixture holds the search_programs queries');
  const scores = [];
  const ceilings: (number | null)[] = [];
  const unreachable: Record<string, number> = { filtered_out: 0, no_query_text: 0 };
  const recordOf = new Map<string, GoldRecord>();
  const goldIds = [...new Set(queries.flatMap((q) => q.expected_ids_present_in_shared_data))];
  for (let i = 0; i < goldIds.length; i += 50) {
    const res = await app.inject({ method: 'POST', url: '/v1/programs/batch', payload: { unified_ids: goldIds.slice(i, i + 50) } });
    assert.equal(res.statusCode, 200, 'the gold records are served');
    for (const r of body<{ results: (GoldRecord & { unified_id: string })[] }>(res).results) recordOf.set(r.unified_id, r);
  }
  assert.equal(recordOf.size, goldIds.length, 'every gold id present in the dataset is served');
  let duplicates = 0;
  let shown = 0;
  for (const given of queries) {
    const q = { ...given, expected_ids_present_in_shared_data: given.expected_ids_present_in_shared_data.filter((id) => !pages.has(id)) };
    const res = await app.inject(`/v1/programs/search?${programSearchQuery(q.tool_args).replace('fields=minimal', 'fields=full')}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    const rows = body<{ results: ResultRow[] }>(res).results;
    duplicates += duplicateRows(rows, same);
    shown += Math.min(10, rows.length);
    const ids = shownIds(rows);
    // The first ten rows a person sees, each with the records of its programme (a programme of many records is one row).
    const firstPage = shownIds(rows.slice(0, 10));
    const s = score(q, ids, firstPage);
    rawScores.push(score(given, ids, firstPage));
    assert.deepEqual(s.forbiddenReturned, [], `${q.id} returns no forbidden id`);
    scores.push(s);
    let ceiling = s.precisionAt10;
    if (!isContractOrdered(q)) {
      const reach = textQueryReach(q, new Set(ids), (id) => recordOf.get(id)!);
      ceiling = reach.ceiling;
      for (const why of Object.values(reach.unreachable)) unreachable[why]++;
    }
    ceilings.push(ceiling);
    if (ceiling !== null) assert.ok(ceiling >= s.precisionAt10!, `${q.id}: the ceiling bounds what the search reaches`);
    t.diagnostic(
      `${q.id}: p@10=${s.precisionAt10?.toFixed(2) ?? 'n/a'} ceiling=${ceiling?.toFixed(2) ?? 'n/a'} recall=${s.recall?.toFixed(2) ?? 'n/a'} returned=${s.returned}`,
    );
  }
  const p10 = mean(scores.map((s) => s.precisionAt10));
  const recall = mean(scores.map((s) => s.recall));
  t.diagnostic(`mean precision@10=${p10.toFixed(3)} mean recall=${recall.toFixed(3)} over ${scores.filter((s) => s.precisionAt10 !== null).length} queries`);
  t.diagnostic(
    `over the whole gold, its ${goldIds.filter((id) => pages.has(id)).length} pages beside programmes included: mean precision@10=${mean(rawScores.map((s) => s.precisionAt10)).toFixed(3)} mean recall=${mean(rawScores.map((s) => s.recall)).toFixed(3)}`,
  );
  const ceiling = mean(ceilings);
  t.diagnostic(
    `best precision@10 any ranking could reach here = ${ceiling.toFixed(3)} (gold ids out of reach: ${unreachable.filtered_out} fail the query's own filters in this catalogue, ` +
      `${unreachable.no_query_text} hold none of the query's text; queries without q keep the contract's order)`,
  );
  t.diagnostic(`duplicate rate (rows of a programme already shown, first 10) = ${(duplicates / Math.max(1, shown)).toFixed(3)}`);
  assert.equal(duplicates, 0, 'no page shows two rows of one programme');
  assert.ok(p10 >= MIN_MEAN_PRECISION_AT_10, `mean precision@10 ${p10.toFixed(3)} >= ${MIN_MEAN_PRECISION_AT_10}`);
  assert.ok(recall >= MIN_MEAN_RECALL, `mean recall ${recall.toFixed(3)} >= ${MIN_MEAN_RECALL}`);
});
