// Search quality of the record-set searches over the upstream gold queries:
// search_laws -> GET /v1/laws/search, search_tax_rules -> GET
// /v1/tax_rulesets/search, search_loan_programs -> GET /v1/loans/search.
// Prints precision@10 per query and fails when the mean drops below the
// figure measured on the bundled data (docs/decisions/0169-gold-evaluations.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { loadEvalQueries, mean, score } from './eval.ts';

// Measured on the bundled dataset (docs/decisions/0169-gold-evaluations.md).
const MIN_MEAN_PRECISION_AT_10 = 0.82; // measured 0.822 over 6 measurable queries

const TOOLS: Record<string, { path: string; id: (row: Record<string, unknown>) => string[] }> = {
  search_laws: { path: '/v1/laws/search', id: (r) => [r.law_id as string, ...((r.law_id_candidates as string[] | null) ?? [])] },
  search_tax_rules: { path: '/v1/tax_rulesets/search', id: (r) => [r.unified_id as string] },
  search_loan_programs: { path: '/v1/loans/search', id: (r) => [r.id as string] },
};

test('record-set gold queries: precision@10 through the HTTP API', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const queries = Object.keys(TOOLS).flatMap((tool) => loadEvalQueries(tool));
  assert.ok(queries.length >= 7, 'the fixture holds the laws / tax / loan queries');
  const scores = [];
  for (const q of queries) {
    const tool = TOOLS[q.tool_name];
    const params = new URLSearchParams({ limit: '100' });
    if (typeof q.tool_args.q === 'string') params.set('q', q.tool_args.q);
    const res = await app.inject(`${tool.path}?${params}`);
    assert.equal(res.statusCode, 200, `${q.id} answers 200`);
    // A row matching several gold ids (law_id candidates) counts once, by its first matching id.
    const ids = body<{ results: Record<string, unknown>[] }>(res).results.map((r) => {
      const candidates = tool.id(r).filter(Boolean);
      return candidates.find((c) => q.expected_ids.includes(c)) ?? candidates[0];
    });
    const s = score(q, ids);
    scores.push(s);
    t.diagnostic(
      `${q.id} (${q.tool_name}): p@10=${s.precisionAt10?.toFixed(2) ?? 'n/a (gold ids not in the dataset)'} recall=${s.recall?.toFixed(2) ?? 'n/a'} returned=${s.returned}`,
    );
  }
  const p10 = mean(scores.map((s) => s.precisionAt10));
  t.diagnostic(`mean precision@10=${p10.toFixed(3)} over ${scores.filter((s) => s.precisionAt10 !== null).length} measurable queries`);
  assert.ok(p10 >= MIN_MEAN_PRECISION_AT_10, `mean precision@10 ${p10.toFixed(3)} >= ${MIN_MEAN_PRECISION_AT_10}`);
});
