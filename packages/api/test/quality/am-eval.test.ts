// Search quality of the /v1/am tools on the upstream gold queries whose tool
// maps onto an /v1/am endpoint: search_tax_rules -> GET /v1/am/tax_rule
// (q -> measure_name_or_id). Precision@10 = expected ids in the first 10 / 10,
// as upstream's min_precision_at_10 is defined. The floor is the mean we
// measured (docs/decisions/0169-gold-evaluations.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, body } from '../helper.ts';

const MEASURED_MEAN_P10 = 0.55;

interface EvalQuery {
  id: string;
  tool_name: string;
  tool_args: Record<string, unknown>;
  expected_ids: string[];
  min_precision_at_10: number;
}

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'eval_queries.jsonl');
const queries = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as EvalQuery);

const MAPPED: Record<string, (args: Record<string, unknown>) => string> = {
  search_tax_rules: (a) => `/v1/am/tax_rule?measure_name_or_id=${encodeURIComponent(String(a.q))}&limit=10`,
};

test('am eval: precision@10 per mapped gold query, mean not below the measured figure', async (t) => {
  const app = await build(t);
  const mapped = queries.filter((q) => MAPPED[q.tool_name] && q.expected_ids.length > 0);
  assert.ok(mapped.length >= 2, 'the fixture holds tax gold queries');
  const scores: number[] = [];
  for (const q of mapped) {
    const res = await app.inject(MAPPED[q.tool_name](q.tool_args));
    assert.equal(res.statusCode, 200);
    const ids = (body(res).results as { unified_id: string }[]).slice(0, 10).map((r) => r.unified_id);
    const p10 = ids.filter((id) => q.expected_ids.includes(id)).length / 10;
    t.diagnostic(`${q.id}: precision@10 = ${p10.toFixed(2)} (upstream minimum ${q.min_precision_at_10})`);
    assert.ok(p10 >= q.min_precision_at_10, `${q.id} below upstream's minimum`);
    scores.push(p10);
  }
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  t.diagnostic(`mean precision@10 over ${scores.length} queries = ${mean.toFixed(3)}`);
  assert.ok(mean >= MEASURED_MEAN_P10 - 1e-9, `mean ${mean} < ${MEASURED_MEAN_P10}`);
});
