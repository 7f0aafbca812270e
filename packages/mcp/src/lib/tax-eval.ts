// Evaluate tax rulesets' eligibility predicates against a profile (shared by
// evaluate_tax_applicability and combined_compliance_check).
import type { ToolApi } from './api.ts';
import type { Profile, Row } from './define.ts';
import { evaluatePredicate } from './predicate.ts';
import { rowsOf } from './search.ts';

/** One verdict per ruleset: the given ids, or the first 100 rulesets. */
export async function evaluateTax(api: ToolApi, profile: Profile, ids: readonly string[] | undefined, verbose: boolean): Promise<Row[]> {
  const rulesets: Row[] =
    ids && ids.length > 0 ? await Promise.all(ids.map((id) => api.taxRulesets.get(id) as Promise<Row>)) : rowsOf(await api.taxRulesets.search({ limit: 100 }));
  return rulesets.map((r) => {
    const ev = evaluatePredicate(r.eligibility_conditions_json, profile);
    const base = {
      unified_id: r.unified_id,
      ruleset_name: r.ruleset_name ?? r.rule_name,
      verdict: ev.verdict,
      missing_fields: ev.missing_fields,
      source_url: r.source_url,
    };
    return verbose ? { ...base, reasons: ev.reasons, predicate: r.eligibility_conditions_json ?? null } : { ...base, reasons: ev.reasons };
  });
}
