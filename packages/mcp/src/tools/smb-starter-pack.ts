// smb_starter_pack: a few fitting subsidies, loans and tax measures in one call.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { todayJst } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { matchProfile } from '../lib/match.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { rowsOf } from '../lib/search.ts';

export const smbStarterPack = defineTool({
  name: 'smb_starter_pack',
  title: 'Starter pack for a small business',
  description:
    'A few subsidies (each with why it fits), loans and tax measures for a small-business profile in one call. Use for a first overview. Not for a full ranked list (prescreen_programs).',
  input: {
    prefecture: f.prefecture(),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code'),
    jsic: z.string().max(10).optional().describe('Alias of industry_jsic'),
    employees: z.number().int().min(0).max(100000).optional().describe('Alias of employee_count'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Employees'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor'),
    limit_per_section: f.limit(10, 5, 'records per section'),
  },
  output: { subsidies: o.rows(), loans: o.rows(), tax_measures: o.rows(), results: o.rows() },
  annotations: READ_ONLY,
  aliases: { employees: 'employee_count', jsic: 'industry_jsic' },
  empty: { subsidies: [], loans: [], tax_measures: [], results: [] },
  notApplied: { revenue_yen: 'programs state no revenue conditions' },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    const n = a.limit_per_section;
    const employees = a.employee_count ?? a.employees;
    const [programs, loans, tax] = await Promise.all([
      // Matched programmes; loans are their own section (one page more, so n remain after them).
      matchProfile(call.api, {
        prefecture,
        industry: a.industry_jsic ?? a.jsic,
        employees,
        sole_proprietor: a.is_sole_proprietor,
        planned_investment_man_yen: a.planned_investment_man_yen,
        limit: Math.min(50, n * 3),
      }),
      call.api.loans.search({ plan_type: 'loan', prefecture, limit: n }).then(rowsOf),
      call.api.taxRulesets.search({ effective_on: todayJst(), limit: n }).then(rowsOf),
    ]);
    const subsidies = programs.filter((p) => p.program_kind !== 'loan').slice(0, n);
    const results = [
      ...subsidies.map((r) => ({ section: 'subsidies', ...r })),
      ...loans.map((r) => ({ section: 'loans', ...r })),
      ...tax.map((r) => ({ section: 'tax_measures', ...r })),
    ];
    return { subsidies, loans, tax_measures: tax, results };
  },
});
