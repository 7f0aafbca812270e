// Tools over record sets this service does not hold (court decisions,
// qualified-invoice registrants). They exist so the 55-tool surface is
// complete; they validate their input, touch what we do have (the law a
// question names) and answer honestly that there are no records, never with
// invented data.
import { z } from 'zod';
import { seg } from '../api.ts';
import { asSearch, defineTool, f, o, prefectureArg, query, SEARCH_EMPTY, searchOutput } from '../lib/tool.ts';
import { LAW_ID } from './records.ts';

const COURT_NOTE = 'This service holds no court decisions: the catalogue has laws, law articles, enforcement findings, case studies, tax rulesets, loans and bids, but no judgments.';
const INVOICE_NOTE = 'This service holds no qualified-invoice-issuer (適格請求書発行事業者) registrations; look the number up at the National Tax Agency publication site (https://www.invoice-kohyo.nta.go.jp/).';

const noRecords = (message: string, hint: string) => ({ code: 'no_matching_records', message, hint });

export const searchCourtDecisions = defineTool({
  name: 'search_court_decisions',
  title: 'Search court decisions',
  description: 'Search court rulings by keywords, court level, decision type, subject, cited statute and date; this deployment holds no rulings and says so.',
  input: {
    q: f.q('ruling texts'),
    court_level: z.enum(['supreme', 'high', 'district', 'summary', 'family']).optional().describe('Court level'),
    decision_type: z.enum(['判決', '決定', '命令']).optional().describe('Type of decision'),
    subject_area: z.string().max(100).optional().describe('Subject area'),
    references_law_id: LAW_ID.optional().describe('Only rulings citing this law (LAW- id)'),
    decided_from: f.date('Earliest decision date'),
    decided_to: f.date('Latest decision date'),
    limit: f.limit(100, 20, 'rulings'),
    offset: f.offset(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(_call, a) {
    return { total: 0, limit: a.limit, offset: a.offset, results: [], explanation: COURT_NOTE, error: noRecords(COURT_NOTE, 'Use search_enforcement_cases for administrative findings on subsidy use.') };
  },
});

export const getCourtDecision = defineTool({
  name: 'get_court_decision',
  title: 'Get one court decision',
  description: 'Fetch one court ruling by its HAN- id; this deployment holds no rulings and says so.',
  input: { unified_id: z.string().regex(/^HAN-[0-9a-f]{10}$/, 'must look like HAN-0123456789').describe('Ruling id, HAN- followed by 10 hex digits') },
  output: { record: o.record() },
  empty: { record: null },
  async run(_call, a) {
    return { record: null, explanation: COURT_NOTE, error: noRecords(`No court decision ${a.unified_id}: ${COURT_NOTE}`, 'Use get_enforcement_case for administrative findings.') };
  },
});

export const findPrecedentsByStatute = defineTool({
  name: 'find_precedents_by_statute',
  title: 'Rulings citing a statute',
  description: 'List court rulings that cite a statute (optionally one article); confirms the statute exists, then reports that this deployment holds no rulings.',
  input: {
    law_unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    article_citation: z.string().max(40).optional().describe('Article, e.g. 第17条'),
    limit: f.limit(100, 20, 'rulings'),
    offset: f.offset(),
  },
  output: { ...searchOutput(), law: o.record() },
  empty: { ...SEARCH_EMPTY, law: null },
  async run(call, a) {
    const law = await call.api.request<Record<string, unknown>>('GET', `/v1/laws/${seg(a.law_unified_id)}`);
    const message = `${COURT_NOTE} The law ${String(law.title ?? a.law_unified_id)} exists; no ruling citing it can be listed.`;
    return { law, total: 0, limit: a.limit, offset: a.offset, results: [], explanation: message, error: noRecords(message, 'Use find_cases_by_law for enforcement findings that cite the law.') };
  },
});

export const findCasesByLaw = defineTool({
  name: 'find_cases_by_law',
  title: 'Cases citing a statute',
  description: 'For a statute, list enforcement findings that cite it (and court rulings, of which this deployment holds none).',
  input: {
    law_unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    include_enforcement: z.boolean().default(true).describe('Include enforcement findings that cite the law'),
    limit: f.limit(100, 20, 'cases'),
  },
  output: { law: o.record(), court_decisions: o.rows(), enforcement_cases: o.rows(), results: o.rows() },
  empty: { law: null, court_decisions: [], enforcement_cases: [], results: [] },
  async run(call, a) {
    const law = await call.api.request<Record<string, unknown>>('GET', `/v1/laws/${seg(a.law_unified_id)}`);
    let enforcement: unknown[] = [];
    if (a.include_enforcement && typeof law.title === 'string') {
      const body = asSearch(await call.api.request('GET', '/v1/enforcement/search', { query: query({ q: law.title, limit: a.limit }) }));
      enforcement = body.results as unknown[];
    }
    return {
      law, court_decisions: [], enforcement_cases: enforcement, results: enforcement,
      explanation: `${enforcement.length} enforcement finding(s) cite this law. ${COURT_NOTE}`,
    };
  },
});

export const searchInvoiceRegistrants = defineTool({
  name: 'search_invoice_registrants',
  title: 'Search invoice registrants',
  description: 'Look up qualified-invoice-issuer registrations by name, corporate number, kind, prefecture and date; this deployment holds no registrations and says where to look.',
  input: {
    q: f.q('registrant names'),
    houjin_bangou: f.houjin(),
    kind: z.enum(['corporate', 'individual']).optional().describe('Registrant kind'),
    prefecture: f.prefecture(),
    registered_after: f.date('Registered on or after'),
    registered_before: f.date('Registered before'),
    active_only: z.boolean().default(true).describe('Only registrations in force'),
    limit: f.limit(100, 50, 'registrants'),
    offset: f.offset(),
  },
  output: searchOutput(),
  empty: SEARCH_EMPTY,
  async run(call, a) {
    prefectureArg(call, a.prefecture);
    return { total: 0, limit: a.limit, offset: a.offset, results: [], explanation: INVOICE_NOTE, error: noRecords(INVOICE_NOTE, 'Use dd_profile_am for what this service knows about a corporate number.') };
  },
});

