// prescreen_programs: rank the programs a business profile is likely eligible for.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Profile, type Row } from '../lib/define.ts';
import { candidatePrograms } from '../lib/candidates.ts';
import { sizeFromProfile } from '../lib/company-size.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { rankPrograms } from '../lib/ranking.ts';

export const prescreenPrograms = defineTool({
  name: 'prescreen_programs',
  title: 'Pre-screen programs for a business',
  description:
    'Rank the programs a business profile (region, applicant type, headcount, planned investment) is likely eligible for, with the reasons for each score; with a corporate number, also report an exclusion period in force against the company.',
  input: {
    prefecture: f.prefecture(),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code'),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor (個人事業主) rather than a company'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Employees; the company size it implies rules out programs for other sizes'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    founded_year: z.number().int().min(1800).max(2100).optional().describe('Year founded'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    houjin_bangou: z.string().max(13).optional().describe('Corporate number; checked for an exclusion period in force'),
    declared_certifications: z.array(z.string().max(100)).max(20).optional().describe('Certifications held, e.g. 経営革新計画'),
    limit: f.limit(50, 10, 'programs'),
  },
  output: {
    results: o.rows(),
    profile: z.record(z.unknown()).describe('The profile as understood'),
    enforcement: z.record(z.unknown()).nullable().optional().describe('Enforcement check of houjin_bangou, when given'),
  },
  annotations: READ_ONLY,
  empty: { results: [], profile: {} },
  notApplied: {
    industry_jsic: 'programs carry no industry code',
    revenue_yen: 'programs state no revenue conditions',
    founded_year: 'programs state no founding-year conditions',
    declared_certifications: 'programs state no certification prerequisites',
  },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    const profile: Profile = { ...a, prefecture, company_size: sizeFromProfile(a.is_sole_proprietor, a.employee_count) };
    const [programs, enforcement] = await Promise.all([
      candidatePrograms(call.api, prefecture),
      a.houjin_bangou ? (call.api.am.enforcement({ houjin_bangou: a.houjin_bangou }) as Promise<Row>) : Promise.resolve(null),
    ]);
    const ranked = rankPrograms(programs, profile).slice(0, a.limit);
    const excluded = enforcement?.currently_excluded === true;
    return {
      profile,
      results: ranked,
      ...(enforcement ? { enforcement } : {}),
      explanation: excluded
        ? 'An exclusion period is in force against this company: public subsidies are barred until it ends. Ranking shown for reference only.'
        : 'Rough ranking from region, applicant type, size, tier and amount; confirm eligibility on each source_url.',
    };
  },
});
