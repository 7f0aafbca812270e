// search_case_studies: published case studies of small businesses (a record
// set: see search_enforcement_cases for how its filters will be produced).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { ROW_DETAIL } from '../lib/enums.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

const NO_AMOUNTS = 'case studies carry no award amounts';

export const searchCaseStudies = defineTool({
  name: 'search_case_studies',
  title: 'Search case studies',
  description: 'Search published case studies of small businesses (SME Agency case navigator) by keywords, prefecture, industry code, corporate number and headcount.',
  input: {
    q: f.q('case titles, company names and tags'),
    prefecture: f.prefecture(),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code (major letter or digits)'),
    houjin_bangou: f.houjin(),
    program_used: z.string().max(200).optional().describe('Program or theme used (matched against tags)'),
    min_subsidy_yen: z.number().int().min(0).optional().describe('Lowest award, yen'),
    max_subsidy_yen: z.number().int().min(0).optional().describe('Highest award, yen'),
    min_employees: z.number().int().min(0).optional().describe('Fewest employees'),
    max_employees: z.number().int().min(0).optional().describe('Most employees'),
    limit: f.limit(100, 20, 'cases'),
    offset: f.offset(),
    fields: ROW_DETAIL.default('minimal').describe('Row detail: minimal, standard or full'),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: { min_subsidy_yen: NO_AMOUNTS, max_subsidy_yen: NO_AMOUNTS, fields: 'case studies come in one row shape' },
  async run(call, a) {
    const body = await call.api.caseStudies.search(compact({
      q: a.q, prefecture: prefectureArg(call, a.prefecture), jsic_code: a.industry_jsic, houjin_bangou: a.houjin_bangou,
      pattern_tag: a.program_used, employees_min: a.min_employees, employees_max: a.max_employees, limit: a.limit, offset: a.offset,
    }));
    return noHits('case study', asSearch(body));
  },
});
