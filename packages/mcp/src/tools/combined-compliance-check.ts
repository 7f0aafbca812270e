// combined_compliance_check: exclusion check, tax evaluation, enforcement
// check and related bids for a profile and program(s), in one report.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Payload, type Profile, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { compact, rowsOf } from '../lib/search.ts';
import { askFor, evaluateTax, isOpen } from '../lib/tax-eval.ts';

export const combinedComplianceCheck = defineTool({
  name: 'combined_compliance_check',
  title: 'One-shot compliance report',
  description:
    'One report for a business profile and programme(s): combination-rule check, tax evaluation, exclusions in force against the company, related bids. Use for a pre-application check.',
  input: {
    business_profile: f.taxProfile(),
    program_unified_id: z.string().max(100).optional().describe('Main program id'),
    include_tax_eval: z.boolean().default(true).describe('Evaluate the tax rulesets'),
    tax_verbose: z.boolean().default(false).describe('List every ruleset with its verdict and reasons (default: those that apply)'),
    top_bids: z.number().int().min(0).max(20).default(5).describe('Related bids to list (0 to 20)'),
    candidate_program_ids: z.array(z.string().max(100)).max(50).optional().describe('Other programs to check together'),
  },
  output: {
    exclusions: z.record(z.unknown()).nullable().describe('Exclusion check'),
    tax: o.rows(),
    enforcement: z.record(z.unknown()).nullable().describe('Enforcement check'),
    bids: o.rows(),
  },
  annotations: READ_ONLY,
  rows: ['tax', 'bids'],
  empty: { exclusions: null, tax: [], enforcement: null, bids: [] },
  async run(call, a) {
    const profile = a.business_profile as Profile;
    const ids = [...new Set([a.program_unified_id, ...(a.candidate_program_ids ?? [])].filter((x): x is string => !!x))];
    const [exclusions, rulesets, enforcement, bids] = await Promise.all([
      ids.length > 0 ? (call.api.exclusions.check({ program_ids: ids }) as Promise<Payload>) : Promise.resolve(null),
      a.include_tax_eval ? evaluateTax(call.api, profile, undefined, true) : Promise.resolve([]),
      typeof profile.houjin_bangou === 'string'
        ? (call.api.am.enforcement({ houjin_bangou: profile.houjin_bangou }) as Promise<Payload>)
        : Promise.resolve(null),
      a.top_bids > 0 ? call.api.bids.search(compact({ program_id_hint: a.program_unified_id, limit: a.top_bids })).then(rowsOf) : Promise.resolve([]),
    ]);
    // The tax section lists the rulesets whose conditions this profile meets; the rest are counted, with the
    // facts to ask for (evaluate_tax_applicability lists every verdict).
    const tax = rulesets
      .filter((t) => a.tax_verbose || t.verdict === 'applies')
      .map((t) => ({ ...t, why: t.verdict === 'applies' ? 'conditions met by the profile' : `verdict ${String(t.verdict)}` }));
    const undecided = rulesets.filter((t) => t.verdict === 'unknown');
    const hits = (exclusions?.hits as Row[] | undefined) ?? [];
    return {
      exclusions,
      tax,
      enforcement,
      bids: bids.map((b) => ({ ...b, why: `a bid naming ${String(a.program_unified_id)}` })),
      result_count: hits.length + tax.length + bids.length + (enforcement?.found === true ? 1 : 0),
      coverage: {
        exclusion_rules_checked: exclusions?.checked_rules ?? null,
        tax_rulesets_evaluated: rulesets.length,
        tax_rulesets_undecided: undecided.length,
        tax_rulesets_open: undecided.filter(isOpen).length,
        fields_to_ask_for: askFor(undecided),
        enforcement: (enforcement?.coverage as Payload | undefined) ?? null,
      },
      explanation: [
        exclusions
          ? `${hits.length} combination rule(s) triggered among ${String(exclusions.checked_rules ?? '?')} checked`
          : 'no programme given: no combination check',
        a.include_tax_eval
          ? `${rulesets.filter((t) => t.verdict === 'applies').length} of ${rulesets.length} tax rulesets apply, ${undecided.length} need facts not given (${undecided.filter(isOpen).length} of them open: conditions given met, evaluate_tax_applicability lists them)`
          : 'tax not evaluated',
        enforcement
          ? enforcement.found === true
            ? 'enforcement findings name this company'
            : 'no enforcement finding names this corporate number (see coverage)'
          : 'no corporate number: no enforcement check',
      ].join('; '),
    };
  },
});
