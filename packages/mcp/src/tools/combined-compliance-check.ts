// combined_compliance_check: exclusion check, tax evaluation, enforcement
// check and related bids for a profile and program(s), in one report.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Payload, type Profile, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { compact, rowsOf } from '../lib/search.ts';
import { evaluateTax } from '../lib/tax-eval.ts';

export const combinedComplianceCheck = defineTool({
  name: 'combined_compliance_check',
  title: 'One-shot compliance report',
  description:
    'One report for a business profile and programme(s): combination-rule check, tax evaluation, exclusions in force against the company, related bids. Use for a pre-application check.',
  input: {
    business_profile: f.taxProfile(),
    program_unified_id: z.string().max(100).optional().describe('Main program id'),
    include_tax_eval: z.boolean().default(true).describe('Evaluate the tax rulesets'),
    tax_verbose: z.boolean().default(false).describe('Include the predicates in the tax section'),
    top_bids: z.number().int().min(0).max(20).default(5).describe('Related bids to list (0 to 20)'),
    candidate_program_ids: z.array(z.string().max(100)).max(50).optional().describe('Other programs to check together'),
  },
  output: {
    exclusions: z.record(z.unknown()).nullable().describe('Exclusion check'),
    tax: o.rows(),
    enforcement: z.record(z.unknown()).nullable().describe('Enforcement check'),
    bids: o.rows(),
    results: o.rows(),
  },
  annotations: READ_ONLY,
  empty: { exclusions: null, tax: [], enforcement: null, bids: [], results: [] },
  async run(call, a) {
    const profile = a.business_profile as Profile;
    const ids = [...new Set([a.program_unified_id, ...(a.candidate_program_ids ?? [])].filter((x): x is string => !!x))];
    const [exclusions, tax, enforcement, bids] = await Promise.all([
      ids.length > 0 ? (call.api.exclusions.check({ program_ids: ids }) as Promise<Payload>) : Promise.resolve(null),
      a.include_tax_eval ? evaluateTax(call.api, profile, undefined, a.tax_verbose) : Promise.resolve([]),
      typeof profile.houjin_bangou === 'string'
        ? (call.api.am.enforcement({ houjin_bangou: profile.houjin_bangou }) as Promise<Payload>)
        : Promise.resolve(null),
      a.top_bids > 0 ? call.api.bids.search(compact({ program_id_hint: a.program_unified_id, limit: a.top_bids })).then(rowsOf) : Promise.resolve([]),
    ]);
    const results = [
      ...((exclusions?.hits as Row[] | undefined) ?? []).map((h) => ({ section: 'exclusion_hit', ...h })),
      ...tax.filter((t) => t.verdict === 'applies').map((t) => ({ section: 'tax_applies', ...t })),
      ...bids.map((b) => ({ section: 'bid', ...b })),
    ];
    return { exclusions, tax, enforcement, bids, results, result_count: results.length + (exclusions ? 1 : 0) + tax.length };
  },
});
