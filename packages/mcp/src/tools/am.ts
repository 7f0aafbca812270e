// Entity-fact tools: each is a thin mapping onto its /v1/am/* twin. The API
// reports domain errors of these endpoints as 200 with an `error` object; the
// tool framework turns that into a normal result with `error` set.
import { z } from 'zod';
import { seg } from '../api.ts';
import { asSearch, defineTool, f, o, prefectureArg, query, resolveAsOf, type Payload, type ToolCall } from '../lib/tool.ts';

/** Warn about given filters the endpoint cannot apply (never a silent 0-row filter). */
function unsupported(call: ToolCall, args: Record<string, unknown>, fields: string[], why: string): void {
  for (const field of fields) if (args[field] !== undefined) call.warn({ code: 'unsupported_filter', field, message: `${why}; ${field} was not applied` });
}

/** A region argument: 'national' / '全国' means no filter; otherwise a prefecture (aliases normalised). */
function regionArg(call: ToolCall, region: string | undefined): string | undefined {
  if (!region || region === 'national' || region === '全国') return undefined;
  return prefectureArg(call, region, 'region');
}

const REGION = z.string().max(40).optional().describe('Region: national, a regional block (e.g. 関東, 近畿) or a prefecture name');
const SIZE = z.enum(['sole', 'small', 'sme', 'mid', 'large']).optional().describe('Company size');
const amRows = () => ({ total: z.number().int().optional().describe('Matching records'), results: o.rows() });
const AM_EMPTY: Payload = { total: 0, results: [] };

const get = (path: string) => async (call: { api: { request<T>(m: 'GET', p: string, o?: { query?: Record<string, unknown> }): Promise<T> } }, q: Record<string, unknown>) =>
  await call.api.request<Payload>('GET', path, { query: query(q) as Record<string, unknown> });

export const searchTaxIncentives = defineTool({
  name: 'search_tax_incentives',
  title: 'Search tax incentives',
  description: 'Search tax incentive measures (credits, deductions, special depreciation, exemptions) by keywords, authority, industry, year and target, as of a date.',
  input: {
    query: f.q('measure names'),
    authority: z.string().max(40).optional().describe('Authority, e.g. 国税庁, 経済産業省, 自治体'),
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    target_year: z.number().int().min(1988).max(2099).optional().describe('Keep measures in force in this year'),
    target_entity: z.string().max(40).optional().describe('Target entity kind, e.g. 中小企業, 個人事業主'),
    natural_query: z.string().max(500).optional().describe('A question in plain words, used as keywords when query is empty'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'measures'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'standard', 'full']).default('minimal').describe('Row detail'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['authority', 'industry', 'target_entity'], 'tax rulesets carry no such field');
    const effectiveOn = a.target_year !== undefined ? `${a.target_year}-04-01` : resolveAsOf(a.as_of);
    return asSearch(await get('/v1/tax_rulesets/search')(call, { q: a.query ?? a.natural_query, effective_on: effectiveOn, limit: a.limit, offset: a.offset }));
  },
});

export const searchCertifications = defineTool({
  name: 'search_certifications',
  title: 'Search certifications',
  description: 'Search certification and accreditation schemes (e.g. 経営革新計画, 認定農業者) by keywords, authority, company size and industry.',
  input: {
    query: f.q('certification names'),
    authority: z.string().max(40).optional().describe('Certifying authority'),
    size: SIZE,
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'certifications'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'standard', 'full']).default('minimal').describe('Row detail'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['authority', 'size', 'industry'], 'certifications carry no such field');
    return asSearch(await get('/v1/certifications/search')(call, { q: a.query, limit: a.limit, offset: a.offset }));
  },
});

export const listOpenPrograms = defineTool({
  name: 'list_open_programs',
  title: 'Programs open for applications',
  description: 'List programs whose application window is open on a date, with the days left until it closes.',
  input: {
    on_date: f.date('Date to check (defaults to as_of)'),
    as_of: f.asOf(),
    region: REGION,
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    size: SIZE,
    natural_query: z.string().max(500).optional().describe('Keywords in plain words'),
    limit: f.limit(100, 20, 'programs'),
  },
  output: { ...amRows(), pivot_date: z.string().nullable().optional().describe('The date checked') },
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['industry', 'size'], 'the open-programs view has no such filter');
    return await get('/v1/am/open_programs')(call, { pivot_date: a.on_date ?? resolveAsOf(a.as_of), prefecture: regionArg(call, a.region), query: a.natural_query, limit: a.limit });
  },
});

const AM_ENUMS = ['authority', 'tier', 'industry', 'funding_purpose', 'target_type', 'region', 'tax_category', 'program_kind', 'loan_type', 'event_type', 'ministry', 'certification_authority'] as const;

export const enumValuesAm = defineTool({
  name: 'enum_values_am',
  title: 'Values of an entity enumeration',
  description: 'Return the values that occur, with counts, for one enumeration of the entity store.',
  input: { enum_name: z.enum(AM_ENUMS).describe('The enumeration') },
  output: { enum_name: z.string().describe('The enumeration'), values: z.array(z.string()).describe('Values'), frequency_map: z.record(z.number()).describe('Value to count') },
  empty: { enum_name: '', values: [], frequency_map: {} },
  async run(call, a) {
    const body = await call.api.request<Payload>('GET', `/v1/am/enums/${seg(a.enum_name)}`);
    return { ...body, result_count: Array.isArray(body.values) ? body.values.length : 0 };
  },
});

export const searchByLaw = defineTool({
  name: 'search_by_law',
  title: 'Records tied to a law',
  description: 'Given a statute name (formal or colloquial), list the programs, tax measures, loans and certifications tied to it.',
  input: {
    law_name: z.string().min(1).max(200).describe('Law name, e.g. 中小企業等経営強化法 or 補助金適正化法'),
    article: z.string().max(40).optional().describe('Article, e.g. 第17条'),
    amendment_date: f.date('Amendment date'),
    limit: f.limit(100, 20, 'records'),
    offset: f.offset(),
  },
  output: { ...amRows(), law_aliases_tried: z.array(z.string()).optional().describe('Law names tried') },
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['amendment_date'], 'amendment dates are not recorded per link');
    return await get('/v1/am/by_law')(call, { law_name: a.law_name, article: a.article, limit: a.limit, offset: a.offset });
  },
});

export const activeProgramsAt = defineTool({
  name: 'active_programs_at',
  title: 'Programs in force on a date',
  description: 'List programs and tax measures whose validity period covers a given date (a point-in-time view).',
  input: {
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').describe('The date, YYYY-MM-DD'),
    region: REGION,
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    size: SIZE,
    limit: f.limit(100, 20, 'records'),
  },
  output: { ...amRows(), pivot_date: z.string().nullable().optional().describe('The date checked') },
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['size'], 'the point-in-time view has no size filter');
    return await get('/v1/am/active_at')(call, { date: a.date, prefecture: regionArg(call, a.region), query: a.industry, limit: a.limit });
  },
});

export const relatedPrograms = defineTool({
  name: 'related_programs',
  title: 'Related programs',
  description: 'Walk the program relation graph (prerequisite, compatible, incompatible, successor, predecessor, similar) one or two hops from a program.',
  input: {
    program_id: z.string().min(1).max(200).describe('Seed program id (unified_id)'),
    relation_types: z.array(z.enum(['prerequisite', 'compatible', 'incompatible', 'successor', 'predecessor', 'similar'])).max(6).optional().describe('Relation kinds to follow (default all)'),
    depth: z.number().int().min(1).max(2).default(1).describe('Hops, 1 or 2'),
    max_edges: z.number().int().min(1).max(500).default(100).describe('Most edges to return (1 to 500)'),
  },
  output: { seed_id: z.string().describe('The seed'), nodes: o.rows(), relations: o.rows(), total_edges: z.number().int().optional().describe('Edges found') },
  empty: { seed_id: '', nodes: [], relations: [] },
  async run(call, a) {
    const body = await get(`/v1/am/related/${seg(a.program_id)}`)(call, { relation_types: a.relation_types?.join(','), depth: a.depth, max_edges: a.max_edges });
    return { ...body, result_count: Array.isArray(body.relations) ? body.relations.length : 0 };
  },
});

export const searchAcceptanceStatsAm = defineTool({
  name: 'search_acceptance_stats_am',
  title: 'Acceptance statistics',
  description: 'Search historical application and acceptance statistics (applicants, accepted, rate, budget) per program round.',
  input: {
    program_name: z.string().max(200).optional().describe('Program name (substring)'),
    year: z.number().int().min(2010).max(2099).optional().describe('Fiscal year'),
    region: REGION,
    industry: z.string().max(100).optional().describe('Industry'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'rounds'),
    offset: f.offset(),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    regionArg(call, a.region);
    const message = 'This service holds no application/acceptance statistics (the upstream statistics table is not published); no rounds can be listed.';
    return { total: 0, limit: a.limit, offset: a.offset, results: [], explanation: message, error: { code: 'no_matching_records', message, hint: 'Each program\'s source_url may publish its own acceptance figures.' } };
  },
});

export const intentOf = defineTool({
  name: 'intent_of',
  title: 'Classify a question',
  description: 'Classify a plain-language question into one of the fixed intent clusters (rule-based), with scores and sample queries.',
  input: { query: z.string().min(1).max(500).describe('The question') },
  output: { intent_id: z.string().nullable().describe('Best intent'), confidence: z.number().nullable().optional().describe('Score of the best intent'), all_scores: o.rows() },
  empty: { intent_id: null, all_scores: [] },
  async run(call, a) {
    return await get('/v1/am/intent')(call, { query: a.query });
  },
});

export const reasonAnswer = defineTool({
  name: 'reason_answer',
  title: 'Answer skeleton with evidence',
  description: 'Classify a question, extract its filters, look up the catalogue and return a fill-in answer skeleton with verified values, sources and the data still missing.',
  input: {
    query: z.string().min(1).max(500).describe('The question'),
    persona: z.enum(['sme_owner', 'tax_advisor', 'agri_corp', 'consultant', 'ma_advisor', 'municipality', 'generic']).optional().describe('Who is asking'),
  },
  output: { answer_skeleton: z.string().nullable().describe('Answer with placeholders filled from the data'), intent: z.string().nullable().describe('Intent'), missing_data: z.array(z.string()).describe('Facts the data could not supply'), source_urls: z.array(z.string()).describe('Sources') },
  empty: { answer_skeleton: null, intent: null, missing_data: [], source_urls: [] },
  async run(call, a) {
    return await get('/v1/am/reason')(call, { query: a.query, persona: a.persona });
  },
});

export const searchGxProgramsAm = defineTool({
  name: 'search_gx_programs_am',
  title: 'Green-transformation programs',
  description: 'Search green-transformation programs (emission cuts, EVs, renewables, net-zero buildings, carbon credits) by theme, size and region.',
  input: {
    theme: z.enum(['ghg_reduction', 'ev', 'renewable', 'zeb_zeh', 'carbon_credit']).default('ghg_reduction').describe('Theme'),
    company_size: z.enum(['sme', 'midsize', 'large', 'individual', 'municipality', 'farmer']).optional().describe('Applicant size or kind'),
    region: REGION,
    limit: f.limit(100, 20, 'programs'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['company_size'], 'GX programs carry no applicant-size field');
    return await get('/v1/am/gx_programs')(call, { theme: a.theme, region: regionArg(call, a.region), limit: a.limit });
  },
});

export const searchLoansAm = defineTool({
  name: 'search_loans_am',
  title: 'Search loans (entity store)',
  description: 'Search loan products with yes/no switches for no collateral, no personal guarantor and no third-party guarantor, plus kind, amount, lender and name.',
  input: {
    loan_kind: z.enum(['ippan', 'trou', 'seirei', 'sanko', 'sogyo', 'rinsei', 'saigai', 'shingiseikyu', 'kiki', 'other']).optional().describe('Loan kind'),
    no_collateral: z.boolean().default(false).describe('Only loans without collateral'),
    no_personal_guarantor: z.boolean().default(false).describe('Only loans without a personal guarantor'),
    no_third_party_guarantor: z.boolean().default(false).describe('Only loans without a third-party guarantor'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest amount, yen'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest amount, yen'),
    lender_entity_id: z.string().max(200).optional().describe('Lender id or name'),
    name_query: z.string().max(200).optional().describe('Name keywords'),
    limit: f.limit(100, 10, 'loans'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    return await get('/v1/am/loans')(call, { loan_kind: a.loan_kind, no_collateral: a.no_collateral || undefined, no_personal_guarantor: a.no_personal_guarantor || undefined, no_third_party_guarantor: a.no_third_party_guarantor || undefined, max_amount_yen: a.max_amount_yen, min_amount_yen: a.min_amount_yen, provider: a.lender_entity_id, name_query: a.name_query, limit: a.limit });
  },
});

export const checkEnforcementAm = defineTool({
  name: 'check_enforcement_am',
  title: 'Enforcement check for a company',
  description: 'Check whether a company (corporate number or name) has an exclusion or penalty in force on a date, with its recent history.',
  input: {
    houjin_bangou: f.houjin(),
    target_name: z.string().max(200).optional().describe('Company name'),
    as_of_date: f.asOf(),
  },
  output: { found: z.boolean().describe('Any record found'), currently_excluded: z.boolean().describe('An exclusion is in force on the date'), active_exclusions: o.rows(), recent_history: o.rows(), all_count: z.number().int().optional().describe('All records found') },
  empty: { found: false, currently_excluded: false, active_exclusions: [], recent_history: [] },
  async run(call, a) {
    const body = await get('/v1/am/enforcement')(call, { houjin_bangou: a.houjin_bangou, target_name: a.target_name, as_of_date: resolveAsOf(a.as_of_date) });
    return { ...body, result_count: typeof body.all_count === 'number' ? body.all_count : 0, explanation: body.found ? null : 'No enforcement record names this company.' };
  },
});

export const searchMutualPlansAm = defineTool({
  name: 'search_mutual_plans_am',
  title: 'Search mutual-aid plans',
  description: 'Search mutual-aid, pension and insurance plans by kind, monthly premium, tax treatment, provider and name.',
  input: {
    plan_kind: z.enum(['retirement_mutual', 'bankruptcy_mutual', 'dc_pension', 'db_pension', 'industry_pension', 'welfare_insurance', 'health_insurance', 'other']).optional().describe('Plan kind'),
    premium_monthly_yen: z.number().int().min(0).optional().describe('Monthly premium, yen'),
    tax_deduction_type: z.enum(['small_enterprise_deduction', 'idekodc', 'group_retirement', 'corp_expense', 'none']).optional().describe('Tax treatment of the premium'),
    provider_entity_id: z.string().max(200).optional().describe('Provider id or name'),
    name_query: z.string().max(200).optional().describe('Name keywords'),
    limit: f.limit(100, 10, 'plans'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['premium_monthly_yen'], 'plans carry no premium amounts');
    return await get('/v1/am/mutual_plans')(call, { plan_kind: a.plan_kind, tax_deduction_type: a.tax_deduction_type, provider: a.provider_entity_id, name_query: a.name_query, limit: a.limit });
  },
});

export const getLawArticleAm = defineTool({
  name: 'get_law_article_am',
  title: 'Text of a law article',
  description: 'Fetch the official text of one statute article from a law name or id and an article number (第17条, 17, 17の2 and similar notations accepted).',
  input: {
    law_name_or_canonical_id: z.string().min(1).max(200).describe('Law name or LAW- id'),
    article_number: z.string().min(1).max(40).describe('Article number, e.g. 第17条 or 17'),
  },
  output: { found: z.boolean().describe('Article found'), title: z.string().nullable().optional().describe('Caption'), text_full: z.string().nullable().optional().describe('Article text'), law: z.record(z.unknown()).nullable().optional().describe('The law') },
  empty: { found: false },
  async run(call, a) {
    const body = await get('/v1/am/law_article')(call, { law_name_or_canonical_id: a.law_name_or_canonical_id, article_number: a.article_number });
    return { ...body, result_count: body.found ? 1 : 0 };
  },
});

export const getAmTaxRule = defineTool({
  name: 'get_am_tax_rule',
  title: 'Rules of a tax measure',
  description: 'Return the structured rules (rate or amount, legal basis, validity) of a named tax measure, optionally one rule type, as of a date.',
  input: {
    measure_name_or_id: z.string().min(1).max(200).describe('Measure name or TAX- id'),
    rule_type: z.enum(['credit', 'deduction', 'reduction', 'special_depreciation', 'immediate_writeoff', 'exemption']).optional().describe('Rule type'),
    as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').optional().describe('Reference date, YYYY-MM-DD'),
  },
  output: amRows(),
  empty: AM_EMPTY,
  async run(call, a) {
    return await get('/v1/am/tax_rule')(call, { measure_name_or_id: a.measure_name_or_id, rule_type: a.rule_type, as_of: a.as_of });
  },
});
