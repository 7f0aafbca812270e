// evaluate_tax_applicability: which tax rulesets' predicates a profile meets.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Profile } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { TAX_ID } from '../lib/ids.ts';
import { insufficientData } from '../lib/no-data.ts';
import { askFor, evaluateTax, isOpen } from '../lib/tax-eval.ts';
import { predicateFields } from '../lib/predicate.ts';
import { MAX_API_CALLS_PER_TOOL_CALL } from '../lib/call-budget.ts';

export const evaluateTaxApplicability = defineTool({
  name: 'evaluate_tax_applicability',
  title: 'Which tax rulesets apply',
  description:
    "Evaluate tax rulesets' eligibility predicates against a business profile: applies, does not apply, or unknown (facts missing). Use for 'which tax measures fit this company'. Not to find a measure by name (search_tax_rules).",
  input: {
    business_profile: f.taxProfile(),
    // One API call per id: at most the budget of one tool call (lib/call-budget.ts).
    target_ruleset_ids: z.array(TAX_ID).max(MAX_API_CALLS_PER_TOOL_CALL).optional().describe('TAX- ids (default: all)'),
  },
  output: { results: o.rows(), applies: z.number().int().describe('Rulesets that apply'), unknown: z.number().int().describe('Rulesets needing more facts') },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: { results: [], applies: 0, unknown: 0 },
  async run(call, a) {
    const results = await evaluateTax(call.api, a.business_profile as Profile, a.target_ruleset_ids, true);
    // A profile key no predicate reads is said, with the documented names it may have meant (capital -> capital_yen).
    const read = new Set<string>();
    for (const r of results) predicateFields(r.predicate, read);
    for (const key of Object.keys(a.business_profile)) {
      if (read.has(key) || read.size === 0) continue;
      const words = key.split(/[_\s]+/).filter((w) => w.length >= 4);
      const near = [...read].filter((f) => words.some((w) => f.split('_').includes(w))).slice(0, 3);
      call.warn({
        code: 'unknown_field',
        field: `business_profile.${key}`,
        message: `no tax predicate reads ${key}${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''} (amounts in yen: *_yen)`,
      });
    }
    const applies = results.filter((r) => r.verdict === 'applies').length;
    const unknown = results.filter((r) => r.verdict === 'unknown').length;
    const open = results.filter(isOpen).length;
    const fieldsToAskFor = askFor(results);
    const withoutPredicate = results.filter((r) => r.requirements_status !== 'predicate').length;
    const coverage = {
      rulesets_evaluated: results.length,
      applies,
      does_not_apply: results.length - applies - unknown,
      unknown,
      open_to_check: open,
      fields_to_ask_for: fieldsToAskFor,
      // Rulesets whose requirements are not held as a predicate: always unknown, whatever the profile.
      rulesets_without_predicate: withoutPredicate,
    };
    if (results.length > 0 && unknown === results.length && open === 0) {
      return insufficientData(
        `None of the ${results.length} rulesets can be decided from this profile; give ${fieldsToAskFor.join(', ')} and call again.`,
        coverage,
        {
          results: [],
          applies: 0,
          unknown,
        },
      );
    }
    return {
      results,
      applies,
      unknown,
      coverage,
      explanation:
        `${applies} of ${results.length} rulesets apply, ${unknown} need more facts` +
        (open > 0 ? ` (${open} of them open: not ruled out, conditions_met lists what the profile meets; listed next)` : '') +
        `; ask for ${fieldsToAskFor.join(', ')}; predicates are an upstream encoding: verify with the cited legal basis.`,
    };
  },
});
