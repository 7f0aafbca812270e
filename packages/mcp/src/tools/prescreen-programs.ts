// prescreen_programs: rank the programs a business profile is likely eligible for.
import { z } from 'zod';
import { industryArg, industryInput } from '../lib/industry.ts';
import { defineTool, READ_ONLY, type Profile, type Row } from '../lib/define.ts';
import { sizeFromProfile } from '../lib/company-size.ts';
import { f, o } from '../lib/fields.ts';
import { matchCoverage, matchProfile, needSentence, PROFILE_FIELDS, saysSomething, setAsideSentence } from '../lib/match.ts';
import { insufficientData } from '../lib/no-data.ts';
import { prefectureArg } from '../lib/prefecture.ts';

export const prescreenPrograms = defineTool({
  name: 'prescreen_programs',
  title: 'Pre-screen programs for a business',
  description:
    "Rank programmes a business profile (place, industry, size, founding year, investment, what it wants) may be eligible for, each with why it fits and what is still to check; with a corporate number, also an exclusion period in force. Use for 'what can this company apply for'. Not for topic search (search_programs).",
  input: {
    prefecture: f.prefecture(),
    industry_jsic: industryInput(),
    need: f.need(),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor (個人事業主) rather than a company'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Employees'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    founded_year: z.number().int().min(1800).max(2100).optional().describe('Year founded'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    houjin_bangou: z.string().max(13).optional().describe('Corporate number: checks exclusions in force'),
    declared_certifications: z.array(z.string().max(100)).max(20).optional().describe('Certifications held, e.g. 経営革新計画'),
    limit: f.limit(50, 10, 'programs'),
  },
  output: {
    results: o.rows(),
    profile: z.record(z.unknown()).describe('The profile as understood'),
    enforcement: z.record(z.unknown()).nullable().optional().describe('Enforcement check of houjin_bangou, when given'),
  },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: { results: [], profile: {} },
  notApplied: {
    revenue_yen: 'programs state no revenue conditions',
    declared_certifications: 'programs state no certification prerequisites',
  },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    // The profile as understood: the facts given (not the row shape asked for).
    const given = Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'fields'));
    const profile: Profile = { ...given, prefecture, company_size: sizeFromProfile(a.is_sole_proprietor, a.employee_count) };
    const facts = {
      prefecture,
      industry: industryArg(call, a.industry_jsic),
      employees: a.employee_count,
      founded_year: a.founded_year,
      sole_proprietor: a.is_sole_proprietor,
      planned_investment_man_yen: a.planned_investment_man_yen,
      need: a.need,
    };
    if (!saysSomething(facts)) {
      return insufficientData(
        `The profile gives nothing to match programmes on (every programme would rank by tier alone); give one of ${PROFILE_FIELDS}.`,
        { profile_fields_given: 0 },
        { results: [], profile },
      );
    }
    const [matched, enforcement] = await Promise.all([
      matchProfile(call.api, { ...facts, limit: a.limit, topUp: true }),
      a.houjin_bangou ? (call.api.am.enforcement({ houjin_bangou: a.houjin_bangou }) as Promise<Row>) : Promise.resolve(null),
    ]);
    const excluded = enforcement?.currently_excluded === true;
    return {
      profile,
      results: matched.rows,
      ...(enforcement ? { enforcement } : {}),
      coverage: matchCoverage(matched),
      explanation: excluded
        ? 'An exclusion period is in force against this company: public subsidies are barred until it ends. Ranking shown for reference only.'
        : `Ranked by the service’s matching engine (POST /v1/programs/match); each row says why it fits (reasons) and what to check (unknowns); confirm eligibility on each source.${needSentence(matched)}${setAsideSentence(matched.set_aside)}`,
    };
  },
});
