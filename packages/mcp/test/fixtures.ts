// Shared test fixtures: the real API app over the test catalogue, ids looked
// up through it, and the argument table that calls each tool of the registry.
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolApi } from '../src/lib/api.ts';
import { createServer } from '../src/server.ts';

type Json = Record<string, any>;

async function get(app: FastifyInstance, url: string): Promise<Json> {
  const res = await app.inject({ method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`fixture lookup ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return JSON.parse(res.body) as Json;
}

const first = async (app: FastifyInstance, url: string): Promise<Json | null> => {
  try {
    return (await get(app, url)).results?.[0] ?? null;
  } catch {
    return null;
  }
};

export interface Ids {
  program: string;
  program2: string;
  lawId: string;
  lawTitle: string;
  enforcement: string | null;
  houjin: string | null;
  caseId: string | null;
  caseJsic: string | null;
  loan: string | null;
  tax: string | null;
  bid: string | null;
}

export async function lookupIds(app: FastifyInstance): Promise<Ids> {
  const programs = await get(app, '/v1/programs/search?tier=S&limit=2&fields=minimal');
  const laws = await get(app, '/v1/laws/search?q=%E4%B8%AD%E5%B0%8F%E4%BC%81%E6%A5%AD&limit=50');
  const law = (laws.results as Json[]).find((l) => typeof l.law_id === 'string' && /^LAW-[0-9a-f]{10}$/.test(l.law_id)) ?? null;
  const enforcement = await first(app, '/v1/enforcement/search?source_family=corporate_action&limit=1');
  const kase = await first(app, '/v1/case_studies/search?limit=1');
  const loan = await first(app, '/v1/loans/search?limit=1');
  const tax = await first(app, '/v1/tax_rulesets/search?limit=1');
  const bid = await first(app, '/v1/bids/search?limit=1');
  return {
    program: programs.results[0].unified_id,
    program2: programs.results[1].unified_id,
    lawId: law?.law_id ?? 'LAW-0000000000',
    lawTitle: law?.title ?? '中小企業基本法',
    enforcement: enforcement?.enforcement_id ?? enforcement?.id ?? null,
    houjin: enforcement?.houjin_bangou ?? null,
    caseId: kase?.case_id ?? kase?.id ?? null,
    caseJsic: kase?.jsic_code ?? null,
    loan: loan?.id ?? loan?.unified_id ?? null,
    tax: tax?.unified_id ?? null,
    bid: bid?.unified_id ?? null,
  };
}

/** A published input property, as the tests that walk every tool's parameters read it. */
export interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  items?: PropertySchema;
  anyOf?: PropertySchema[];
}

/** Arguments that make each tool of the registry do real work against the test catalogue. */
export function argumentTable(ids: Ids): Record<string, Record<string, unknown>> {
  const profile = {
    prefecture: '東京都',
    employee_count: 12,
    is_sole_proprietor: false,
    houjin_bangou: ids.houjin ?? '1234567890123',
    supplier_is_qualified_invoice_issuer: false,
  };
  return {
    search_programs: { q: '補助金', limit: 5 },
    get_program: { unified_id: ids.program },
    batch_get_programs: { unified_ids: [ids.program, ids.program2, ids.program] },
    list_exclusion_rules: { kind: ['prerequisite'] },
    check_exclusions: { program_ids: [ids.program, ids.program2] },
    get_meta: {},
    enum_values: { field: 'prefecture', limit: 10 },
    search_enforcement_cases: { q: '補助金', limit: 5 },
    get_enforcement_case: { case_id: ids.enforcement ?? 'missing' },
    search_case_studies: { prefecture: '東京', limit: 5 },
    get_case_study: { case_id: ids.caseId ?? 'missing' },
    search_loan_programs: { q: '資金', limit: 5 },
    get_loan_program: { loan_id: ids.loan ?? 'missing' },
    prescreen_programs: { prefecture: '東京都', is_sole_proprietor: false, employee_count: 10, limit: 5 },
    smb_starter_pack: { prefecture: 'Tokyo', employees: 5, limit_per_section: 3 },
    upcoming_deadlines: { within_days: 180 },
    deadline_calendar: { months_ahead: 6 },
    subsidy_combo_finder: { keyword: '補助金', limit: 2 },
    dd_profile_am: { houjin_bangou: ids.houjin ?? '1234567890123' },
    similar_cases: ids.caseId ? { case_id: ids.caseId, limit: 5 } : { industry_jsic: 'E', limit: 5 },
    subsidy_roadmap_3yr: { industry: '設備投資', prefecture: '山形県', horizon_months: 36 },
    search_laws: { q: '中小企業', limit: 5 },
    get_law: { unified_id: ids.lawId },
    list_law_revisions: { unified_id: ids.lawId },
    search_court_decisions: { q: '補助金' },
    get_court_decision: { unified_id: 'HAN-0123456789' },
    find_precedents_by_statute: { law_unified_id: ids.lawId },
    search_bids: { limit: 5 },
    get_bid: { unified_id: ids.bid ?? 'BID-0000000000' },
    bid_eligible_for_profile: { bid_unified_id: ids.bid ?? 'BID-0000000000', business_profile: profile },
    search_tax_rules: { q: 'インボイス', limit: 5 },
    get_tax_rule: { unified_id: ids.tax ?? 'TAX-0000000000' },
    evaluate_tax_applicability: { business_profile: profile },
    search_invoice_registrants: { q: '株式会社' },
    trace_program_to_law: { program_unified_id: ids.program },
    find_cases_by_law: { law_unified_id: ids.lawId },
    combined_compliance_check: { business_profile: profile, program_unified_id: ids.program, top_bids: 3 },
    regulatory_prep_pack: { industry: '建設', limit_per_section: 3 },
    search_tax_incentives: { query: '税額控除', limit: 5 },
    search_certifications: { query: '認定', limit: 5 },
    list_open_programs: { limit: 5 },
    enum_values_am: { enum_name: 'tier' },
    search_by_law: { law_name: ids.lawTitle, limit: 5 },
    active_programs_at: { date: '2026-04-01', limit: 5 },
    related_programs: { program_id: ids.program },
    search_acceptance_stats_am: { limit: 5 },
    intent_of: { query: '東京都の設備投資に使える補助金は？' },
    reason_answer: { query: '東京都の設備投資に使える補助金は？', persona: 'sme_owner' },
    search_gx_programs_am: { theme: 'renewable', limit: 5 },
    search_loans_am: { no_collateral: true, limit: 5 },
    check_enforcement_am: { houjin_bangou: ids.houjin ?? '1234567890123' },
    search_mutual_plans_am: { limit: 5 },
    get_law_article_am: { law_name_or_canonical_id: '中小企業基本法', article_number: '第1条' },
    get_am_tax_rule: { measure_name_or_id: ids.tax ?? 'インボイス' },
    list_tax_sunset_alerts: { days_until: 1825 },
  };
}

/** A paid key on the app (no daily limit), returned in plaintext. */
export async function paidKey(app: FastifyInstance): Promise<{ key: string; id: number }> {
  const { generateApiKey } = await import('../../api/src/access/keys.ts');
  const { key, hash, prefix } = generateApiKey();
  const record = await app.state.keys.create({ keyHash: hash, prefix, tier: 'paid', customerId: `cus_${prefix}`, subscriptionId: `sub_${prefix}` });
  return { key, id: record.id };
}

/** Tools whose endpoint or data is not (yet) available: a call answers isError until it lands. */
export function knownUnavailable(ids: Ids): Set<string> {
  const out = new Set<string>();
  if (!ids.bid) {
    out.add('get_bid');
    out.add('bid_eligible_for_profile');
  }
  return out;
}

/** An MCP client connected over the SDK's in-memory transport to a server whose tools call `api`; closed after the test. */
export async function connectTools(t: { after(fn: () => unknown): void }, api: ToolApi, name = 'test', toolsets: readonly string[] = []): Promise<Client> {
  const { server, cleanup } = createServer(api, { toolsets });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await cleanup();
  });
  return client;
}
