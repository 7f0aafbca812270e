// smb_starter_pack: a few fitting subsidies, loans and tax measures in one call.
import { z } from 'zod';
import { industryArg, industryInput } from '../lib/industry.ts';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { matchCoverage, matchProfile, needSentence, PROFILE_FIELDS, saysSomething, setAsideSentence, withWhy } from '../lib/match.ts';
import { insufficientData } from '../lib/no-data.ts';
import { evaluateTax, isOpen } from '../lib/tax-eval.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';

export const smbStarterPack = defineTool({
  name: 'smb_starter_pack',
  title: 'Starter pack for a small business',
  description:
    'A few subsidies, loans and tax measures for a small-business profile in one call, each with why it is there (one matching engine). Use for a first overview. Not for a full ranked list (prescreen_programs).',
  input: {
    prefecture: f.prefecture(),
    industry_jsic: industryInput(),
    need: f.need(),
    capital_yen: z.number().int().min(0).optional().describe('Capital, yen (decides the SME tax measures)'),
    jsic: z.string().max(40).optional().describe('Alias of industry_jsic'),
    employees: z.number().int().min(0).max(100000).optional().describe('Alias of employee_count'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Employees'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor'),
    limit_per_section: f.limit(10, 5, 'records per section'),
  },
  output: { subsidies: o.rows(), loans: o.rows(), tax_measures: o.rows() },
  annotations: READ_ONLY,
  rows: ['subsidies', 'loans', 'tax_measures'],
  aliases: { employees: 'employee_count', jsic: 'industry_jsic' },
  empty: { subsidies: [], loans: [], tax_measures: [] },
  notApplied: { revenue_yen: 'programs state no revenue conditions' },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    const n = a.limit_per_section;
    const facts = {
      prefecture,
      industry: industryArg(call, a.industry_jsic ?? a.jsic),
      employees: a.employee_count ?? a.employees,
      sole_proprietor: a.is_sole_proprietor,
      planned_investment_man_yen: a.planned_investment_man_yen,
      need: a.need,
    };
    if (!saysSomething(facts)) {
      return insufficientData(`The profile gives nothing to match programmes on; give one of ${PROFILE_FIELDS}.`, { profile_fields_given: 0 }, {});
    }
    // One engine for every section: the programmes it matched to the profile, split by kind (two pages, so loans
    // and tax measures, fewer than subsidies, still show); the tax rulesets whose conditions the profile meets.
    const taxProfile = compact({
      prefecture,
      capital_yen: a.capital_yen,
      employee_count: facts.employees,
      is_sole_proprietor: a.is_sole_proprietor,
      industry_jsic: facts.industry,
    });
    const [matched, rulesets] = await Promise.all([
      matchProfile(call.api, { ...facts, limit: 100, pages: 2, topUp: true }),
      evaluateTax(call.api, taxProfile, undefined, false),
    ]);
    const ofKind = (test: (kind: unknown) => boolean) =>
      matched.rows
        .filter((r) => test(r.program_kind))
        .slice(0, n)
        .map(withWhy);
    const subsidies = ofKind((k) => k !== 'loan' && k !== 'tax_measure');
    const loans = ofKind((k) => k === 'loan');
    const applying = rulesets.filter((t) => t.verdict === 'applies').map((t) => ({ ...t, why: `conditions met: ${(t.reasons as string[]).join('; ')}` }));
    // Open: the conditions the profile speaks to are met, the rest to check (the facts named).
    const open = rulesets
      .filter(isOpen)
      .map((t) => ({ ...t, why: `conditions met: ${(t.conditions_met as string[]).join('; ')}; to check: ${(t.missing_fields as string[]).join(', ')}` }));
    const tax_measures = [...applying, ...ofKind((k) => k === 'tax_measure'), ...open].slice(0, n);
    const undecided = rulesets.filter((t) => t.verdict === 'unknown').length;
    const empty = Object.entries({ subsidies, loans, tax_measures })
      .filter(([, rows]) => rows.length === 0)
      .map(([section]) => section);
    return {
      subsidies,
      loans,
      tax_measures,
      result_count: subsidies.length + loans.length + tax_measures.length,
      coverage: { ...matchCoverage(matched), tax_rulesets_evaluated: rulesets.length, tax_rulesets_undecided: undecided, sections_without_a_match: empty },
      explanation:
        `Each item says why it is there (the matching engine's reasons, or the tax conditions met); ${undecided} of ${rulesets.length} tax rulesets need facts this profile does not give (evaluate_tax_applicability).` +
        (empty.length > 0 ? ` Nothing fits in: ${empty.join(', ')}.` : '') +
        needSentence(matched) +
        setAsideSentence(matched.set_aside),
    };
  },
});
