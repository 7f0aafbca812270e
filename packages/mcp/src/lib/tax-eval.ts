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
  const verdicts = rulesets.map((r) => {
    // A ruleset without a predicate cannot be decided: unknown, saying what of its requirements is held (decision 0398).
    const held = r.eligibility_conditions_json && typeof r.eligibility_conditions_json === 'object';
    const ev = held
      ? evaluatePredicate(r.eligibility_conditions_json, profile)
      : {
          verdict: 'unknown' as const,
          missing_fields: [] as string[],
          met: [] as string[],
          reasons: [
            Array.isArray(r.requirements) && r.requirements.length > 0
              ? `requirements listed, not as a predicate: check ${(r.requirements as { requirement: string }[]).map((x) => x.requirement).join('; ')}`
              : 'requirements not held: read them at source_url',
          ],
        };
    const base = {
      unified_id: r.unified_id,
      ruleset_name: r.ruleset_name ?? r.rule_name,
      verdict: ev.verdict,
      missing_fields: ev.missing_fields,
      // An undecided ruleset whose conditions the profile meets as far as it goes: what is met, the rest to check.
      ...(ev.verdict === 'unknown' && ev.met.length > 0 ? { conditions_met: ev.met } : {}),
      requirements_status: r.requirements_status ?? (held ? 'predicate' : 'not_held'),
      source_url: r.source_url,
    };
    return verbose ? { ...base, reasons: ev.reasons, predicate: r.eligibility_conditions_json ?? null } : { ...base, reasons: ev.reasons };
  });
  // What an adviser reads first: what applies, then what is open to the company (most conditions met first), then
  // what does not apply, then what the profile says nothing about.
  const rank = (r: Row): number => (r.verdict === 'applies' ? 0 : isOpen(r) ? 1 : r.verdict === 'does_not_apply' ? 2 : 3);
  const metCount = (r: Row): number => (Array.isArray(r.conditions_met) ? r.conditions_met.length : 0);
  return verdicts
    .map((r, i) => ({ r, i }))
    .sort((x, y) => rank(x.r) - rank(y.r) || metCount(y.r) - metCount(x.r) || x.i - y.i)
    .map(({ r }) => r);
}

/** Undecided, with every fact the profile gives meeting its conditions (at least one): open to the company, to check. */
export const isOpen = (r: Row): boolean => r.verdict === 'unknown' && Array.isArray(r.conditions_met) && r.conditions_met.length > 0;

/** The facts most often missing among these verdicts (at most five): what to ask the client next. */
export function askFor(verdicts: readonly Row[]): string[] {
  const wanted = new Map<string, number>();
  // The facts that would decide the open rulesets come first: they are what the company is close to.
  const open = verdicts.filter(isOpen);
  for (const r of open.length > 0 ? open : verdicts)
    for (const field of (r.missing_fields as string[] | undefined) ?? []) wanted.set(field, (wanted.get(field) ?? 0) + 1);
  return [...wanted]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 5)
    .map(([field]) => field);
}
