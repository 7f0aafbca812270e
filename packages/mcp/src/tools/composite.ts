// Composite tools: each combines a few REST calls into one answer for a
// business question (eligibility, deadlines, bundles, due diligence). The
// ranking and grouping logic lives in lib/composite.ts as plain functions.
import { z } from 'zod';
import { seg, type Api } from '../api.ts';
import { asSearch, defineTool, f, o, prefectureArg, query, todayJst, ToolInputError, type Payload } from '../lib/tool.ts';
import { evaluatePredicate } from '../lib/predicate.ts';
import {
  addDays, daysBetween, deadlineOf, fiscalQuarter, rankPrograms, sunsetBucket, type Profile, type Row,
} from '../lib/composite.ts';
import { BID_ID } from './records.ts';

const rows = async (api: Api, path: string, q: Record<string, unknown>): Promise<Row[]> =>
  asSearch(await api.request('GET', path, { query: query(q) })).results as Row[];

const SIZE4 = z.enum(['sole', 'small', 'medium', 'large']).optional().describe('Company size');

async function candidatePrograms(api: Api, prefecture: string | undefined, extra: Record<string, unknown> = {}): Promise<Row[]> {
  const base = { fields: 'default', limit: 100, ...extra };
  const lists = await Promise.all([
    prefecture ? rows(api, '/v1/programs/search', { ...base, prefecture }) : Promise.resolve([]),
    rows(api, '/v1/programs/search', { ...base, authority_level: 'national' }),
  ]);
  const seen = new Set<string>();
  return lists.flat().filter((r) => !seen.has(String(r.unified_id)) && seen.add(String(r.unified_id)));
}

export const prescreenPrograms = defineTool({
  name: 'prescreen_programs',
  title: 'Pre-screen programs for a business',
  description: 'Rank the programs a business profile (region, industry, size, revenue, founding year, planned investment, certifications) is likely eligible for, with the reasons for each score.',
  input: {
    prefecture: f.prefecture(),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code'),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor (個人事業主) rather than a company'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Employees'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    founded_year: z.number().int().min(1800).max(2100).optional().describe('Year founded'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    houjin_bangou: z.string().max(13).optional().describe('Corporate number'),
    declared_certifications: z.array(z.string().max(100)).max(20).optional().describe('Certifications held, e.g. 経営革新計画'),
    limit: f.limit(50, 10, 'programs'),
  },
  output: { results: o.rows(), profile: z.record(z.unknown()).describe('The profile as understood') },
  empty: { results: [], profile: {} },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    const profile: Profile = { ...a, prefecture };
    const ranked = rankPrograms(await candidatePrograms(call.api, prefecture), profile).slice(0, a.limit);
    return { profile, results: ranked, explanation: 'Rough ranking from region, applicant type, tier and amount; confirm eligibility on each source_url.' };
  },
});

export const smbStarterPack = defineTool({
  name: 'smb_starter_pack',
  title: 'Starter pack for a small business',
  description: 'One call returning a few fitting subsidies, loans and tax measures for a small-business profile.',
  input: {
    prefecture: f.prefecture(),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code'),
    jsic: z.string().max(10).optional().describe('Alias of industry_jsic'),
    employees: z.number().int().min(0).max(100000).optional().describe('Employees'),
    employee_count: z.number().int().min(0).max(100000).optional().describe('Alias of employees'),
    revenue_yen: z.number().int().min(0).optional().describe('Annual revenue, yen'),
    planned_investment_man_yen: z.number().min(0).optional().describe('Planned investment, 10,000 yen'),
    is_sole_proprietor: z.boolean().optional().describe('Sole proprietor'),
    limit_per_section: f.limit(10, 5, 'records per section'),
  },
  output: { subsidies: o.rows(), loans: o.rows(), tax_measures: o.rows(), results: o.rows() },
  empty: { subsidies: [], loans: [], tax_measures: [], results: [] },
  async run(call, a) {
    const prefecture = prefectureArg(call, a.prefecture);
    const n = a.limit_per_section;
    const profile: Profile = { ...a, prefecture, industry_jsic: a.industry_jsic ?? a.jsic, employee_count: a.employee_count ?? a.employees };
    const [programs, loans, tax] = await Promise.all([
      candidatePrograms(call.api, prefecture),
      rows(call.api, '/v1/loans/search', { plan_type: 'loan', prefecture, limit: n }),
      rows(call.api, '/v1/tax_rulesets/search', { effective_on: todayJst(), limit: n }),
    ]);
    const subsidies = rankPrograms(programs.filter((p) => p.program_kind !== 'loan'), profile).slice(0, n);
    const results = [
      ...subsidies.map((r) => ({ section: 'subsidies', ...r })),
      ...loans.map((r) => ({ section: 'loans', ...r })),
      ...tax.map((r) => ({ section: 'tax_measures', ...r })),
    ];
    return { subsidies, loans, tax_measures: tax, results };
  },
});

async function openPrograms(api: Api, prefecture: string | undefined, onDate: string): Promise<Row[]> {
  return rows(api, '/v1/am/open_programs', { pivot_date: onDate, prefecture, limit: 100 });
}

export const upcomingDeadlines = defineTool({
  name: 'upcoming_deadlines',
  title: 'Upcoming application deadlines',
  description: 'List programs whose application window closes within the next N days, soonest first.',
  input: {
    within_days: z.number().int().min(1).max(180).optional().describe('Days ahead to look (default 30)'),
    days_ahead: z.number().int().min(1).max(180).optional().describe('Alias of within_days'),
    prefecture: f.prefecture(),
    authority_level: z.string().max(20).optional().describe('national, prefecture, municipality or financial'),
    tier: z.array(z.enum(['S', 'A', 'B', 'C', 'X'])).max(5).optional().describe('Tiers to keep'),
    limit: f.limit(100, 50, 'programs'),
  },
  output: { results: o.rows(), window_end: z.string().describe('Last date included') },
  empty: { results: [], window_end: '' },
  async run(call, a) {
    const today = todayJst();
    const until = addDays(today, a.within_days ?? a.days_ahead ?? 30);
    const found = (await openPrograms(call.api, prefectureArg(call, a.prefecture), today))
      .map((r): Row & { deadline: string | null } => ({ ...r, deadline: deadlineOf(r) }))
      .filter((r) => r.deadline !== null && r.deadline >= today && r.deadline <= until)
      .filter((r) => !a.tier || a.tier.includes(String(r.tier) as never))
      .filter((r) => !a.authority_level || r.authority_level === a.authority_level)
      .map((r) => ({ ...r, days_remaining: daysBetween(today, r.deadline as string) }))
      .sort((x, y) => x.days_remaining - y.days_remaining)
      .slice(0, a.limit);
    return { window_end: until, results: found, explanation: found.length === 0 ? `No recorded application window closes between ${today} and ${until}.` : null };
  },
});

export const deadlineCalendar = defineTool({
  name: 'deadline_calendar',
  title: 'Deadline calendar',
  description: 'Group upcoming application deadlines by month for the next 1 to 6 months.',
  input: {
    months_ahead: z.number().int().min(1).max(6).default(3).describe('Months ahead, 1 to 6'),
    prefecture: f.prefecture(),
    tier: z.array(z.enum(['S', 'A', 'B', 'C', 'X'])).max(5).optional().describe('Tiers to keep'),
  },
  output: { months: z.array(z.object({ month: z.string(), programs: o.rows() })).describe('One entry per month'), results: o.rows() },
  empty: { months: [], results: [] },
  async run(call, a) {
    const today = todayJst();
    const until = addDays(today, a.months_ahead * 31);
    const found = (await openPrograms(call.api, prefectureArg(call, a.prefecture), today))
      .map((r): Row & { deadline: string | null } => ({ ...r, deadline: deadlineOf(r) }))
      .filter((r) => r.deadline !== null && r.deadline >= today && r.deadline <= until)
      .filter((r) => !a.tier || a.tier.includes(String(r.tier) as never))
      .sort((x, y) => String(x.deadline).localeCompare(String(y.deadline)));
    const months: { month: string; programs: Row[] }[] = [];
    for (let i = 0; i < a.months_ahead; i++) {
      const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + i);
      const month = d.toISOString().slice(0, 7);
      months.push({ month, programs: found.filter((r) => String(r.deadline).startsWith(month)) });
    }
    return { months, results: found };
  },
});

export const subsidyComboFinder = defineTool({
  name: 'subsidy_combo_finder',
  title: 'Find program combinations',
  description: 'Suggest combinations of a subsidy, a loan and a tax measure around a keyword or a seed program, dropping combinations an exclusion rule forbids.',
  input: {
    keyword: z.string().max(200).optional().describe('Keyword, e.g. 設備投資'),
    unified_id: z.string().max(100).optional().describe('Seed program id'),
    prefecture: f.prefecture(),
    limit: f.limit(5, 3, 'combinations'),
  },
  output: { results: o.rows() },
  empty: { results: [] },
  async run(call, a) {
    if (!a.keyword && !a.unified_id) throw new ToolInputError('empty_input', 'Pass keyword or unified_id', 'e.g. keyword=設備投資');
    const prefecture = prefectureArg(call, a.prefecture);
    const seeds: Row[] = a.unified_id
      ? [await call.api.request<Row>('GET', `/v1/programs/${seg(a.unified_id)}`)]
      : await rows(call.api, '/v1/programs/search', { q: a.keyword, prefecture, fields: 'minimal', limit: a.limit * 2 });
    const [loans, tax] = await Promise.all([
      rows(call.api, '/v1/loans/search', { plan_type: 'loan', limit: a.limit }),
      rows(call.api, '/v1/tax_rulesets/search', { effective_on: todayJst(), limit: a.limit }),
    ]);
    const combos: Row[] = [];
    for (const [i, seed] of seeds.entries()) {
      if (combos.length >= a.limit) break;
      const loan = loans.length > 0 ? loans[i % loans.length] : null;
      const taxRule = tax.length > 0 ? tax[i % tax.length] : null;
      const ids = [seed.unified_id, loan?.unified_id].filter((x): x is string => typeof x === 'string');
      const check = await call.api.request<{ hits: unknown[] }>('POST', '/v1/exclusions/check', { body: { program_ids: ids } });
      if (check.hits.length > 0) continue;
      combos.push({ subsidy: seed, loan, tax_measure: taxRule, exclusion_hits: 0 });
    }
    return { results: combos, explanation: combos.length === 0 ? 'No conflict-free combination found for this seed.' : 'Combinations checked against the exclusion rules; verify conditions on each source.' };
  },
});

export const ddProfileAm = defineTool({
  name: 'dd_profile_am',
  title: 'Due-diligence profile of a company',
  description: 'Bundle what the catalogue holds on a corporate number: enforcement history and exclusions in force, published case studies, bids won; invoice registration is not held.',
  input: {
    houjin_bangou: z.string().min(1).max(64).describe('Corporate number (13 digits; hyphens and spaces are removed)'),
    include_adoptions: z.boolean().default(true).describe('Include case studies / awards'),
    adoption_limit: f.limit(50, 20, 'case studies'),
  },
  output: { houjin_bangou: z.string().describe('The number'), enforcement: z.record(z.unknown()).nullable().describe('Enforcement check'), adoptions: o.rows(), bids_won: o.rows(), invoice_registration: z.record(z.unknown()).describe('Invoice registration status') },
  empty: { houjin_bangou: '', enforcement: null, adoptions: [], bids_won: [], invoice_registration: {} },
  async run(call, a) {
    const number = a.houjin_bangou.replace(/[-\s]/g, '');
    if (!/^\d{13}$/.test(number)) throw new ToolInputError('invalid_field', 'houjin_bangou must be 13 digits', 'e.g. 1234567890123');
    const [enforcement, adoptions, bids] = await Promise.all([
      call.api.request<Payload>('GET', '/v1/am/enforcement', { query: { houjin_bangou: number } }),
      a.include_adoptions ? rows(call.api, '/v1/case_studies/search', { houjin_bangou: number, limit: a.adoption_limit }) : Promise.resolve([]),
      rows(call.api, '/v1/bids/search', { winner_houjin_bangou: number, limit: 20 }),
    ]);
    return {
      houjin_bangou: number, enforcement, adoptions, bids_won: bids,
      invoice_registration: { status: 'not_held', note: 'Invoice registrations are not in this catalogue; check https://www.invoice-kohyo.nta.go.jp/' },
      result_count: adoptions.length + bids.length + (enforcement.found ? 1 : 0),
      explanation: `${adoptions.length} case stud(ies), ${bids.length} bid(s) won, enforcement record ${enforcement.found ? 'found' : 'not found'}.`,
    };
  },
});

export const similarCases = defineTool({
  name: 'similar_cases',
  title: 'Similar case studies',
  description: 'Given a case study id or a description, return similar case studies (same industry, region or themes).',
  input: {
    case_id: z.string().max(200).optional().describe('Seed case id'),
    description: z.string().max(500).optional().describe('What the business did, in plain words'),
    industry_jsic: z.string().max(10).optional().describe('JSIC industry code'),
    prefecture: f.prefecture(),
    limit: f.limit(20, 10, 'cases'),
  },
  output: { seed: o.record(), results: o.rows() },
  empty: { seed: null, results: [] },
  async run(call, a) {
    if (!a.case_id && !a.description && !a.industry_jsic) throw new ToolInputError('empty_input', 'Pass case_id, description or industry_jsic');
    const seed = a.case_id ? await call.api.request<Row>('GET', `/v1/case_studies/${seg(a.case_id)}`) : null;
    const jsic = a.industry_jsic ?? (typeof seed?.jsic_code === 'string' ? seed.jsic_code : undefined);
    const prefecture = prefectureArg(call, a.prefecture) ?? (typeof seed?.prefecture === 'string' ? seed.prefecture : undefined);
    let found = await rows(call.api, '/v1/case_studies/search', { q: a.description, jsic_code: jsic, prefecture, limit: a.limit + 1 });
    if (found.length <= 1 && prefecture) found = await rows(call.api, '/v1/case_studies/search', { q: a.description, jsic_code: jsic, limit: a.limit + 1 });
    const results = found.filter((r) => !seed || r.case_id !== seed.case_id).slice(0, a.limit);
    return { seed, results };
  },
});

export const subsidyRoadmap3yr = defineTool({
  name: 'subsidy_roadmap_3yr',
  title: 'Multi-year application roadmap',
  description: 'Build a timeline of application windows that may apply to an industry, region, size and purpose, grouped by Japanese fiscal quarter; programs without a recorded window are listed separately.',
  input: {
    industry: z.string().min(1).max(100).describe('Industry or theme keywords, e.g. 製造業, 農業'),
    prefecture: f.prefecture(),
    company_size: SIZE4,
    funding_purpose: z.enum(['equipment', 'rd', 'export', 'staffing', 'digital', 'green', 'general']).optional().describe('Purpose of the funding'),
    from_date: f.date('Start of the roadmap (default today)'),
    horizon_months: z.number().int().min(1).max(60).default(36).describe('Months covered, 1 to 60'),
    limit: f.limit(100, 20, 'programs'),
  },
  output: { quarters: z.array(z.object({ fiscal_quarter: z.string(), programs: o.rows() })).describe('Windows per fiscal quarter'), undated: o.rows(), results: o.rows() },
  empty: { quarters: [], undated: [], results: [] },
  async run(call, a) {
    const from = a.from_date ?? todayJst();
    const until = addDays(from, Math.round(a.horizon_months * 30.44));
    const prefecture = prefectureArg(call, a.prefecture);
    let found = await candidatePrograms(call.api, prefecture, { q: a.industry });
    if (found.length === 0) found = await candidatePrograms(call.api, prefecture);
    const dated: Row[] = [];
    const undated: Row[] = [];
    for (const r of found) {
      const end = deadlineOf(r);
      if (end && end >= from && end <= until) dated.push({ ...r, deadline: end, fiscal_quarter: fiscalQuarter(end) });
      else if (!end) undated.push(r);
    }
    dated.sort((x, y) => String(x.deadline).localeCompare(String(y.deadline)));
    const byQuarter = new Map<string, Row[]>();
    for (const r of dated.slice(0, a.limit)) byQuarter.set(String(r.fiscal_quarter), [...(byQuarter.get(String(r.fiscal_quarter)) ?? []), r]);
    return {
      quarters: [...byQuarter].map(([fiscal_quarter, programs]) => ({ fiscal_quarter, programs })),
      undated: undated.slice(0, a.limit),
      results: dated.slice(0, a.limit),
      result_count: Math.min(dated.length, a.limit) + Math.min(undated.length, a.limit),
      explanation: `${dated.length} program(s) with a window closing ${from}..${until}; ${undated.length} related program(s) without a recorded window.`,
    };
  },
});

export const bidEligibleForProfile = defineTool({
  name: 'bid_eligible_for_profile',
  title: 'Rough bid eligibility check',
  description: "Check a business profile roughly against a procurement notice's stated conditions (region, unified qualification, exclusions in force).",
  input: {
    bid_unified_id: BID_ID.describe('Bid id, BID- followed by 10 hex digits'),
    business_profile: f.profile(),
  },
  output: { bid: o.record(), verdict: z.enum(['likely_eligible', 'likely_ineligible', 'unknown']).describe('Rough verdict'), checks: o.rows() },
  empty: { bid: null, verdict: 'unknown', checks: [] },
  async run(call, a) {
    const bid = await call.api.request<Row>('GET', `/v1/bids/${seg(a.bid_unified_id)}`);
    const p = a.business_profile as Profile;
    const checks: Row[] = [];
    const conditions = String(bid.eligibility_conditions ?? '');
    if (bid.prefecture && typeof p.prefecture === 'string') checks.push({ check: 'region', ok: p.prefecture === bid.prefecture, detail: `bid region ${String(bid.prefecture)}, profile ${p.prefecture}` });
    if (/全省庁統一資格|競争参加資格/.test(conditions)) checks.push({ check: 'unified_qualification', ok: typeof p.has_unified_qualification === 'boolean' ? p.has_unified_qualification : null, detail: 'the notice requires a competitive-participation qualification' });
    if (typeof p.houjin_bangou === 'string') {
      const enf = await call.api.request<Payload>('GET', '/v1/am/enforcement', { query: { houjin_bangou: p.houjin_bangou } });
      checks.push({ check: 'no_exclusion_in_force', ok: !enf.currently_excluded, detail: enf.currently_excluded ? 'an exclusion is in force' : 'no exclusion in force on record' });
    }
    const verdict = checks.some((c) => c.ok === false) ? 'likely_ineligible' : checks.length > 0 && checks.every((c) => c.ok === true) ? 'likely_eligible' : 'unknown';
    return { bid, verdict, checks, result_count: 1, explanation: conditions ? `Stated conditions: ${conditions.slice(0, 200)}` : 'The notice states no conditions in the catalogue; verify on its source_url.' };
  },
});

type TaxRow = Row & { eligibility_conditions_json?: unknown };

async function evaluateTax(api: Api, profile: Profile, ids: readonly string[] | undefined, verbose: boolean): Promise<Row[]> {
  const rulesets: TaxRow[] = ids && ids.length > 0
    ? await Promise.all(ids.map((id) => api.request<TaxRow>('GET', `/v1/tax_rulesets/${seg(id)}`)))
    : await rows(api, '/v1/tax_rulesets/search', { limit: 100 });
  return rulesets.map((r) => {
    const ev = evaluatePredicate(r.eligibility_conditions_json, profile);
    const base = { unified_id: r.unified_id, ruleset_name: r.ruleset_name ?? r.rule_name, verdict: ev.verdict, missing_fields: ev.missing_fields, source_url: r.source_url };
    return verbose ? { ...base, reasons: ev.reasons, predicate: r.eligibility_conditions_json ?? null } : { ...base, reasons: ev.reasons };
  });
}

export const evaluateTaxApplicability = defineTool({
  name: 'evaluate_tax_applicability',
  title: 'Which tax rulesets apply',
  description: "Evaluate the tax rulesets' machine-readable eligibility predicates against a business profile and say which apply, which do not, and which need more facts.",
  input: {
    business_profile: f.profile(),
    target_ruleset_ids: z.array(z.string().regex(/^TAX-[0-9a-f]{10}$/)).max(100).optional().describe('TAX- ids to evaluate (default: all)'),
  },
  output: { results: o.rows(), applies: z.number().int().describe('Rulesets that apply'), unknown: z.number().int().describe('Rulesets needing more facts') },
  empty: { results: [], applies: 0, unknown: 0 },
  async run(call, a) {
    const results = await evaluateTax(call.api, a.business_profile as Profile, a.target_ruleset_ids, true);
    return { results, applies: results.filter((r) => r.verdict === 'applies').length, unknown: results.filter((r) => r.verdict === 'unknown').length, explanation: 'Predicates are an upstream encoding; verify with the cited legal basis.' };
  },
});

export const traceProgramToLaw = defineTool({
  name: 'trace_program_to_law',
  title: 'Laws behind a program',
  description: 'Return the statutes a program is based on or refers to, optionally with the laws that superseded them.',
  input: {
    program_unified_id: z.string().min(1).max(100).describe('Program id'),
    follow_revision_chain: z.boolean().default(true).describe('Also fetch successor laws'),
  },
  output: { program: o.record(), results: o.rows() },
  empty: { program: null, results: [] },
  async run(call, a) {
    const program = await call.api.request<Row>('GET', `/v1/programs/${seg(a.program_unified_id)}`, { query: { fields: 'minimal' } });
    const graph = await call.api.request<{ nodes?: Row[]; relations?: Row[] }>('GET', `/v1/am/related/${seg(a.program_unified_id)}`, { query: { relation_types: 'based_on_law', depth: 1 } });
    const lawIds = new Set((graph.relations ?? []).map((r) => (r.src_id === a.program_unified_id ? r.dst_id : r.src_id)));
    const results: Row[] = [];
    for (const node of graph.nodes ?? []) {
      if (!lawIds.has(node.entity_id)) continue;
      let successors: Row[] = [];
      if (a.follow_revision_chain) {
        const chain = await call.api.request<{ nodes?: Row[] }>('GET', `/v1/am/related/${seg(String(node.entity_id))}`, { query: { relation_types: 'successor', depth: 2 } });
        successors = (chain.nodes ?? []).filter((n) => n.entity_id !== node.entity_id);
      }
      results.push({ ...node, successors });
    }
    return { program, results, explanation: results.length === 0 ? 'The catalogue records no law reference for this program.' : null };
  },
});

export const combinedComplianceCheck = defineTool({
  name: 'combined_compliance_check',
  title: 'One-shot compliance report',
  description: 'One report for a business profile and program(s): exclusion-rule check of the programs, tax ruleset evaluation, exclusions in force against the company, and related bids.',
  input: {
    business_profile: f.profile(),
    program_unified_id: z.string().max(100).optional().describe('Main program id'),
    include_tax_eval: z.boolean().default(true).describe('Evaluate the tax rulesets'),
    tax_verbose: z.boolean().default(false).describe('Include the predicates in the tax section'),
    top_bids: z.number().int().min(0).max(20).default(5).describe('Related bids to list (0 to 20)'),
    candidate_program_ids: z.array(z.string().max(100)).max(50).optional().describe('Other programs to check together'),
  },
  output: { exclusions: z.record(z.unknown()).nullable().describe('Exclusion check'), tax: o.rows(), enforcement: z.record(z.unknown()).nullable().describe('Enforcement check'), bids: o.rows(), results: o.rows() },
  empty: { exclusions: null, tax: [], enforcement: null, bids: [], results: [] },
  async run(call, a) {
    const profile = a.business_profile as Profile;
    const ids = [...new Set([a.program_unified_id, ...(a.candidate_program_ids ?? [])].filter((x): x is string => !!x))];
    const [exclusions, tax, enforcement, bids] = await Promise.all([
      ids.length > 0 ? call.api.request<Payload>('POST', '/v1/exclusions/check', { body: { program_ids: ids } }) : Promise.resolve(null),
      a.include_tax_eval ? evaluateTax(call.api, profile, undefined, a.tax_verbose) : Promise.resolve([]),
      typeof profile.houjin_bangou === 'string' ? call.api.request<Payload>('GET', '/v1/am/enforcement', { query: { houjin_bangou: profile.houjin_bangou } }) : Promise.resolve(null),
      a.top_bids > 0 ? rows(call.api, '/v1/bids/search', { program_id_hint: a.program_unified_id, limit: a.top_bids }) : Promise.resolve([]),
    ]);
    const results = [
      ...((exclusions?.hits as Row[] | undefined) ?? []).map((h) => ({ section: 'exclusion_hit', ...h })),
      ...tax.filter((t) => t.verdict === 'applies').map((t) => ({ section: 'tax_applies', ...t })),
      ...bids.map((b) => ({ section: 'bid', ...b })),
    ];
    return { exclusions, tax, enforcement, bids, results, result_count: results.length + (exclusions ? 1 : 0) + tax.length };
  },
});

export const regulatoryPrepPack = defineTool({
  name: 'regulatory_prep_pack',
  title: 'Regulatory prep pack',
  description: 'For an industry and region, bundle relevant laws, certifications, tax rulesets and recent enforcement examples.',
  input: {
    industry: z.string().min(1).max(100).describe('Industry keywords, e.g. 建設, 農業, 運送'),
    prefecture: f.prefecture(),
    company_size: SIZE4,
    include_expired: z.boolean().default(false).describe('Include repealed laws and expired tax rulesets'),
    limit_per_section: f.limit(20, 5, 'records per section'),
  },
  output: { laws: o.rows(), certifications: o.rows(), tax_rulesets: o.rows(), enforcement_examples: o.rows(), results: o.rows() },
  empty: { laws: [], certifications: [], tax_rulesets: [], enforcement_examples: [], results: [] },
  async run(call, a) {
    const n = a.limit_per_section;
    const prefecture = prefectureArg(call, a.prefecture);
    const [laws, certs, tax, enforcement] = await Promise.all([
      rows(call.api, '/v1/laws/search', { q: a.industry, status: a.include_expired ? undefined : 'active', limit: n }),
      rows(call.api, '/v1/certifications/search', { q: a.industry, limit: n }),
      rows(call.api, '/v1/tax_rulesets/search', { effective_on: a.include_expired ? undefined : todayJst(), limit: n }),
      rows(call.api, '/v1/enforcement/search', { q: a.industry, prefecture, limit: n }),
    ]);
    const results = [
      ...laws.map((r) => ({ section: 'laws', ...r })),
      ...certs.map((r) => ({ section: 'certifications', ...r })),
      ...tax.map((r) => ({ section: 'tax_rulesets', ...r })),
      ...enforcement.map((r) => ({ section: 'enforcement_examples', ...r })),
    ];
    return { laws, certifications: certs, tax_rulesets: tax, enforcement_examples: enforcement, results };
  },
});

export const listTaxSunsetAlerts = defineTool({
  name: 'list_tax_sunset_alerts',
  title: 'Tax measures about to expire',
  description: 'List tax measures whose validity ends within N days, grouped into buckets by how soon they expire.',
  input: {
    days_until: z.number().int().min(1).max(1825).default(365).describe('Days ahead, 1 to 1825'),
    only_critical: z.boolean().default(false).describe('Only measures ending within 90 days'),
    limit: f.limit(500, 100, 'measures'),
  },
  output: { buckets: z.record(z.array(z.record(z.unknown()))).describe('critical (<=90 days), warning (<=180), upcoming (<=365), later'), results: o.rows() },
  empty: { buckets: {}, results: [] },
  async run(call, a) {
    const today = todayJst();
    const all = await rows(call.api, '/v1/tax_rulesets/search', { effective_on: today, limit: 100 });
    const results = all
      .map((r) => ({ unified_id: r.unified_id, ruleset_name: r.ruleset_name ?? r.rule_name, ends_on: (r.sunset_date ?? r.effective_to ?? r.effective_until ?? null) as string | null, source_url: r.source_url }))
      .filter((r): r is typeof r & { ends_on: string } => typeof r.ends_on === 'string' && r.ends_on >= today)
      .map((r) => ({ ...r, days_left: daysBetween(today, r.ends_on) }))
      .filter((r) => r.days_left <= a.days_until)
      .map((r) => ({ ...r, bucket: sunsetBucket(r.days_left) }))
      .filter((r) => !a.only_critical || r.bucket === 'critical')
      .sort((x, y) => x.days_left - y.days_left)
      .slice(0, a.limit);
    const buckets: Record<string, Row[]> = {};
    for (const r of results) (buckets[r.bucket] ??= []).push(r);
    return { buckets, results, explanation: results.length === 0 ? `No tax measure in force ends within ${a.days_until} days of ${today}.` : null };
  },
});
