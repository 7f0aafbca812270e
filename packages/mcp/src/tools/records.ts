// Record-set tools: enforcement findings, case studies, loans, tax rulesets,
// laws, bids. Each maps onto the matching /v1/<set>/search and /v1/<set>/{id}.
import { z } from 'zod';
import { seg } from '../api.ts';
import {
  asSearch, defineTool, f, o, prefectureArg, query, RECORD_EMPTY, SEARCH_EMPTY, searchOutput, type ToolCall,
} from '../lib/tool.ts';

/** Warn about given filters the endpoint cannot apply (never a silent 0-row filter). */
function unsupported(call: ToolCall, args: Record<string, unknown>, fields: string[], why: string): void {
  for (const field of fields) if (args[field] !== undefined) call.warn({ code: 'unsupported_filter', field, message: `${why}; ${field} was not applied` });
}

const noHits = (what: string, out: Record<string, unknown>) => {
  if ((out.results as unknown[]).length === 0) out.explanation = `No ${what} matched these filters.`;
  return out;
};

// -- enforcement --------------------------------------------------------------

export const searchEnforcementCases = defineTool({
  name: 'search_enforcement_cases',
  title: 'Search enforcement findings',
  description: 'Search findings of improper subsidy use and administrative actions (Board of Audit, labour bureaus, regulators) by keywords, authority, prefecture, legal basis, corporate number, amounts and dates.',
  input: {
    q: f.q('titles, target names and reasons'),
    event_type: z.string().max(100).optional().describe('Action type, values as listed by enum_values(field=event_type)'),
    ministry: z.string().max(100).optional().describe('Authority that published the finding, e.g. 会計検査院, 厚生労働省'),
    prefecture: f.prefecture(),
    legal_basis: z.string().max(200).optional().describe('Statute named in the finding (substring)'),
    program_name_hint: z.string().max(200).optional().describe('Program name as published in the finding (substring)'),
    recipient_houjin_bangou: f.houjin('Corporate number (13 digits) of the recipient'),
    min_improper_grant_yen: z.number().int().min(0).optional().describe('Lowest improper amount, yen'),
    max_improper_grant_yen: z.number().int().min(0).optional().describe('Highest improper amount, yen'),
    disclosed_from: f.date('Earliest action/disclosure date'),
    disclosed_until: f.date('Latest action/disclosure date'),
    limit: f.limit(100, 20, 'findings'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'standard', 'full']).default('minimal').describe('Row detail: minimal, standard or full'),
    as_of: f.asOf(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['event_type', 'legal_basis', 'program_name_hint', 'min_improper_grant_yen', 'max_improper_grant_yen'], 'the enforcement search has no such filter');
    const body = await call.api.request('GET', '/v1/enforcement/search', {
      query: query({
        q: a.q ?? a.legal_basis ?? a.program_name_hint, authority: a.ministry, prefecture: prefectureArg(call, a.prefecture),
        houjin_bangou: a.recipient_houjin_bangou, decided_from: a.disclosed_from, decided_to: a.disclosed_until, limit: a.limit, offset: a.offset,
      }),
    });
    return noHits('finding', asSearch(body));
  },
});

export const getEnforcementCase = defineTool({
  name: 'get_enforcement_case',
  title: 'Get one enforcement finding',
  description: 'Fetch one improper-use finding or administrative action by its id.',
  input: { case_id: z.string().min(1).max(200).describe('Finding id as returned by search_enforcement_cases') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/enforcement/${seg(a.case_id)}`) };
  },
});

// -- case studies -------------------------------------------------------------

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
    min_subsidy_yen: z.number().int().min(0).optional().describe('Lowest award, yen (the data carries no award amounts: ignored with a warning)'),
    max_subsidy_yen: z.number().int().min(0).optional().describe('Highest award, yen (ignored like min_subsidy_yen)'),
    min_employees: z.number().int().min(0).optional().describe('Fewest employees'),
    max_employees: z.number().int().min(0).optional().describe('Most employees'),
    limit: f.limit(100, 20, 'cases'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'standard', 'full']).default('minimal').describe('Row detail: minimal, standard or full'),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    for (const field of ['min_subsidy_yen', 'max_subsidy_yen'] as const) {
      if (a[field] !== undefined) call.warn({ code: 'unsupported_filter', field, message: 'case studies carry no award amounts; the filter was not applied' });
    }
    const body = await call.api.request('GET', '/v1/case_studies/search', {
      query: query({
        q: a.q, prefecture: prefectureArg(call, a.prefecture), jsic_code: a.industry_jsic, houjin_bangou: a.houjin_bangou,
        pattern_tag: a.program_used, employees_min: a.min_employees, employees_max: a.max_employees, limit: a.limit, offset: a.offset,
      }),
    });
    return noHits('case study', asSearch(body));
  },
});

export const getCaseStudy = defineTool({
  name: 'get_case_study',
  title: 'Get one case study',
  description: 'Fetch one case study record by its id.',
  input: { case_id: z.string().min(1).max(200).describe('Case id as returned by search_case_studies') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/case_studies/${seg(a.case_id)}`) };
  },
});

// -- loans --------------------------------------------------------------------

const RISK = z.enum(['required', 'not_required', 'negotiable', 'unknown']);

export const searchLoanPrograms = defineTool({
  name: 'search_loan_programs',
  title: 'Search loan products',
  description: 'Search loan products and programs with separate filters for collateral, personal guarantor and third-party guarantor requirements, plus lender, amount, rate and term.',
  input: {
    q: f.q('loan names'),
    provider: z.string().max(200).optional().describe('Lender or administering body (substring)'),
    loan_type: z.string().max(100).optional().describe('Loan type code'),
    collateral_required: RISK.optional().describe('Collateral requirement'),
    personal_guarantor_required: RISK.optional().describe('Personal (representative) guarantor requirement'),
    third_party_guarantor_required: RISK.optional().describe('Third-party guarantor requirement'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest acceptable maximum amount, yen'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest acceptable maximum amount, yen'),
    max_interest_rate: z.number().min(0).optional().describe('Highest acceptable base annual rate (fraction or percent as stored)'),
    min_loan_period_years: z.number().int().min(0).optional().describe('Shortest acceptable maximum term, years'),
    limit: f.limit(100, 20, 'loans'),
    offset: f.offset(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    unsupported(call, a, ['provider', 'loan_type', 'min_amount_yen', 'max_amount_yen', 'max_interest_rate', 'min_loan_period_years'], 'the loan search has no such filter (search_loans_am filters by lender and amount)');
    const body = await call.api.request('GET', '/v1/loans/search', {
      query: query({
        q: a.q ?? a.provider, collateral: a.collateral_required, personal_guarantor: a.personal_guarantor_required,
        third_party_guarantor: a.third_party_guarantor_required, plan_type: 'loan', limit: a.limit, offset: a.offset,
      }),
    });
    return noHits('loan', asSearch(body));
  },
});

export const getLoanProgram = defineTool({
  name: 'get_loan_program',
  title: 'Get one loan product',
  description: 'Fetch one loan product or loan program by its id.',
  input: { loan_id: z.union([z.number().int(), z.string().min(1).max(200)]).describe('Loan id as returned by search_loan_programs (number or string id)') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/loans/${seg(a.loan_id)}`) };
  },
});

// -- tax rulesets --------------------------------------------------------------

export const searchTaxRules = defineTool({
  name: 'search_tax_rules',
  title: 'Search tax rulesets',
  description: 'Search tax rulesets (invoice system, e-bookkeeping, credits, deductions, special depreciation) by keywords, tax category, kind and the date they must be in force.',
  input: {
    q: f.q('ruleset names and legal bases'),
    tax_category: z.enum(['consumption', 'corporate', 'income', 'property', 'local', 'inheritance']).optional().describe('Tax category'),
    ruleset_kind: z.enum(['registration', 'credit', 'deduction', 'special_depreciation', 'exemption', 'preservation', 'other']).optional().describe('Kind of ruleset'),
    effective_on: f.date('Keep rulesets in force on this date'),
    limit: f.limit(100, 20, 'rulesets'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'default', 'full']).default('default').describe('Row detail: minimal, default or full'),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    const body = await call.api.request('GET', '/v1/tax_rulesets/search', {
      query: query({ q: a.q, tax_category: a.tax_category, ruleset_kind: a.ruleset_kind, effective_on: a.effective_on, limit: a.limit, offset: a.offset }),
    });
    return noHits('tax ruleset', asSearch(body));
  },
});

export const getTaxRule = defineTool({
  name: 'get_tax_rule',
  title: 'Get one tax ruleset',
  description: 'Fetch one tax ruleset by its TAX- id, with its legal basis and machine-readable eligibility predicate.',
  input: { unified_id: z.string().regex(/^TAX-[0-9a-f]{10}$/, 'must look like TAX-0123456789').describe('Ruleset id, TAX- followed by 10 hex digits') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/tax_rulesets/${seg(a.unified_id)}`) };
  },
});

// -- laws ---------------------------------------------------------------------

export const LAW_ID = z.string().regex(/^LAW-[0-9a-f]{10}$/, 'must look like LAW-0123456789');

export const searchLaws = defineTool({
  name: 'search_laws',
  title: 'Search laws',
  description: 'Search the catalogue of Japanese statutes and regulations by keywords, type, ministry and status.',
  input: {
    q: f.q('law titles and numbers'),
    law_type: z.enum(['constitution', 'act', 'cabinet_order', 'imperial_order', 'ministerial_ordinance', 'rule', 'notice', 'guideline']).optional().describe('Type of instrument (inferred from the law number)'),
    ministry: z.string().max(100).optional().describe('Ministry code, e.g. mhlw, meti, mof-nta'),
    currently_effective_only: z.boolean().default(true).describe('Only laws in force (status active)'),
    include_repealed: z.boolean().default(false).describe('Also return repealed laws'),
    limit: f.limit(100, 20, 'laws'),
    offset: f.offset(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    const status = a.include_repealed ? undefined : a.currently_effective_only ? 'active' : undefined;
    unsupported(call, a, ['law_type'], 'laws carry no instrument type');
    const body = await call.api.request('GET', '/v1/laws/search', {
      query: query({ q: a.q, ministry_code: a.ministry, status, limit: a.limit, offset: a.offset }),
    });
    return noHits('law', asSearch(body));
  },
});

export const getLaw = defineTool({
  name: 'get_law',
  title: 'Get one law',
  description: 'Fetch one statute by its LAW- id: title, number, dates, ministry, status and source.',
  input: { unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/laws/${seg(a.unified_id)}`) };
  },
});

export const listLawRevisions = defineTool({
  name: 'list_law_revisions',
  title: 'Revision chain of a law',
  description: 'Walk the chain of a statute: the law itself, the laws it superseded and the laws that superseded it, as far as the catalogue records them.',
  input: {
    unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    max_hops: z.number().int().min(1).max(20).default(10).describe('Most links to follow in each direction (1 to 20)'),
  },
  output: { law: o.record(), results: o.rows() },
  empty: { law: null, results: [] },
  async run(call, a) {
    const law = await call.api.request<Record<string, unknown>>('GET', `/v1/laws/${seg(a.unified_id)}`);
    const chain: Record<string, unknown>[] = [];
    const seen = new Set([a.unified_id]);
    for (const [direction, key] of [['predecessor', 'supersedes'], ['successor', 'superseded_by']] as const) {
      let next = law[key];
      for (let hop = 1; hop <= a.max_hops && typeof next === 'string' && !seen.has(next); hop++) {
        seen.add(next);
        const row = await call.api.request<Record<string, unknown>>('GET', `/v1/laws/${seg(next)}`);
        chain.push({ direction, hop, law: row });
        next = row[key];
      }
    }
    return {
      law, results: chain,
      explanation: chain.length === 0
        ? `The catalogue records no predecessor or successor for this law (status: ${String(law.status ?? 'unknown')}, last amended ${String(law.last_amended_on ?? 'unknown')}).`
        : `${chain.length} linked law(s).`,
      result_count: chain.length + 1,
    };
  },
});

// -- bids ---------------------------------------------------------------------

export const BID_ID = z.string().regex(/^BID-[0-9a-f]{10}$/, 'must look like BID-0123456789');

export const searchBids = defineTool({
  name: 'search_bids',
  title: 'Search public bids',
  description: 'Search public procurement notices and results by keywords, kind, procuring or winning corporate number, amount and deadline.',
  input: {
    q: f.q('bid titles and descriptions'),
    bid_kind: z.enum(['open', 'selective', 'negotiated', 'kobo_subsidy']).optional().describe('Procurement kind'),
    procuring_houjin_bangou: f.houjin('Corporate number of the procuring body (13 digits)'),
    winner_houjin_bangou: f.houjin('Corporate number of the winner (13 digits)'),
    program_id_hint: z.string().max(100).optional().describe('Program unified_id the bid relates to'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest amount, yen'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest amount, yen'),
    deadline_after: f.date('Only bids whose deadline is after this date'),
    limit: f.limit(100, 20, 'bids'),
    offset: f.offset(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    const body = await call.api.request('GET', '/v1/bids/search', {
      query: query({
        q: a.q, bid_kind: a.bid_kind, procuring_houjin_bangou: a.procuring_houjin_bangou, winner_houjin_bangou: a.winner_houjin_bangou,
        program_id_hint: a.program_id_hint, min_amount_yen: a.min_amount_yen, max_amount_yen: a.max_amount_yen,
        deadline_after: a.deadline_after, limit: a.limit, offset: a.offset,
      }),
    });
    return noHits('bid', asSearch(body));
  },
});

export const getBid = defineTool({
  name: 'get_bid',
  title: 'Get one bid',
  description: 'Fetch one public procurement record by its BID- id.',
  input: { unified_id: BID_ID.describe('Bid id, BID- followed by 10 hex digits') },
  output: { record: o.record() },
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.request('GET', `/v1/bids/${seg(a.unified_id)}`) };
  },
});

