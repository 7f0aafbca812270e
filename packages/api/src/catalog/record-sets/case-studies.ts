// SME case studies (中小企業庁 jirei-navi). The pages name the company, its
// industry, size and theme tags, but neither the program used nor an amount.
import { Type } from 'typebox';
import { defineRecordSet } from './spec.ts';
import { Str, DateStr, Num, Int, StrList, Houjin, Id, checkHoujin, prefectureFilter } from './fields.ts';
import { HoujinParam, Short } from './params.ts';
import { likeContains } from '../text-query.ts';

const Employees = Type.Integer({ minimum: 0, maximum: 10_000_000 });

export default defineRecordSet({
  name: 'case_studies',
  label: 'Case study',
  table: 'case_studies',
  file: 'case_studies',
  idField: 'case_id',
  schema: Type.Object({
    case_id: Id,
    title: Type.String(),
    company_name: Str,
    houjin_bangou: Houjin,
    houjin_bangou_invalid_as_published: Str,
    prefecture: Str,
    industry_name: Str,
    jsic_code: Str,
    employees: Int,
    founded_year: Int,
    capital_man_yen: Num,
    capital_text: Str,
    published_date: DateStr,
    pattern_tags: StrList,
    source_url: Type.String(),
    source_fetched_at: Str,
    _source: Str,
  }),
  check: checkHoujin('houjin_bangou'),
  columns: {
    case_id: 'text',
    title: 'text',
    company_name: 'text',
    houjin_bangou: 'text',
    houjin_bangou_invalid_as_published: 'text',
    prefecture: 'text',
    industry_name: 'text',
    jsic_code: 'text',
    employees: 'int',
    founded_year: 'int',
    capital_man_yen: 'real',
    capital_text: 'text',
    published_date: 'text',
    pattern_tags: 'json',
    source_url: 'text',
    source_fetched_at: 'text',
    _source: 'text',
  },
  unique: ['case_id'],
  indexes: ['prefecture', 'jsic_code', 'houjin_bangou', 'published_date'],
  searchable: {
    title: { weight: 5, short: true },
    company_name: { weight: 5, short: true },
    other: { weight: 1, from: ['industry_name', 'pattern_tags'], short: true },
  },

  row: { $id: 'CaseStudy' },
  search: {
    operationId: 'searchCaseStudies',
    summary: 'Search SME case studies by free text, prefecture, industry, corporate number, pattern tag, employees',
    responseId: 'CaseStudySearchResponse',
    filters: [
      prefectureFilter(),
      {
        // A JSIC major letter (`E`) matches its divisions (`E09`); a full code matches exactly.
        name: 'jsic_code',
        aliases: ['industry_jsic'],
        type: Type.String({ pattern: '^[A-Za-z][0-9]{0,3}$', description: 'JSIC code: a major letter (E) matches its divisions (E09)' }),
        sql: "r.jsic_code GLOB ? || '*'",
        bind: (v: string) => v.toUpperCase().replace(/[*?[\]]/g, ''),
      },
      { name: 'industry', type: Short('Substring of industry_name'), sql: "r.industry_name LIKE ? ESCAPE '\\'", bind: likeContains },
      { name: 'houjin_bangou', type: HoujinParam(), sql: 'r.houjin_bangou = ?' },
      {
        name: 'pattern_tag',
        aliases: ['program_used'],
        type: Short('e.g. DX/デジタル化'),
        sql: 'EXISTS (SELECT 1 FROM json_each(r.pattern_tags) WHERE json_each.value = ?)',
      },
      { name: 'employees_min', aliases: ['min_employees'], type: Employees, sql: 'r.employees >= ?' },
      { name: 'employees_max', aliases: ['max_employees'], type: Employees, sql: 'r.employees <= ?' },
    ],
    ranges: [['employees_min', 'employees_max']],
    order: 'r.published_date DESC, r.case_id',
  },
  detail: {
    operationId: 'getCaseStudy',
    summary: 'One case study by case_id',
    keys: ['case_id'],
  },
  tools: {
    search: {
      name: 'search_case_studies',
      title: 'Search case studies',
      description:
        'Published SME case studies (SME Agency case navigator) by keywords, prefecture, industry, corporate number, theme and headcount. Use for what similar firms did; pages state no award amounts.',
      q: 'case titles, company names and tags',
      noun: 'cases',
      params: {
        prefecture: 'prefecture',
        industry_jsic: { filter: 'industry_jsic', description: 'JSIC industry code (major letter or digits)' },
        houjin_bangou: 'houjin_bangou',
        program_used: {
          filter: 'program_used',
          description: 'Theme tag (exact, e.g. DX/デジタル化)',
        },
        min_employees: { filter: 'min_employees', description: 'Fewest employees' },
        max_employees: { filter: 'max_employees', description: 'Most employees' },
      },
    },
    get: {
      name: 'get_case_study',
      title: 'Get one case study',
      description: 'One case study by its id (from search_case_studies).',
      id: { name: 'case_id', description: 'Case id' },
    },
  },
});
