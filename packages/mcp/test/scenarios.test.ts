// Consultant requests as the tool calls an agent makes, over the two real
// transports (the stdio server as a child process, and Streamable HTTP at
// /mcp), against the real API serving the bundled dataset. Each scenario
// asserts properties an adviser would check before signing the answer: a
// national programme where one applies, coverage stated when the answer is
// empty or uncertain, no conflict where the rules do not say so, every cited
// row with a source URL, one error discipline (decision 0390-0393).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from '../../api/test/helper.ts';
import { paidKey } from './fixtures.ts';

type Json = Record<string, any>;
interface Answer {
  isError: boolean;
  body: Json;
}
interface Scenario {
  /** The request as a consultant would put it. */
  ask: string;
  tool: string;
  args: Json;
  check(answer: Answer): void;
}

const BIN = path.join(import.meta.dirname, '..', 'src', 'bin.ts');

const rowsOf = (body: Json): Json[] => (Array.isArray(body.results) ? body.results : []);
const cites = (row: Json): boolean => [row.source_url, row.official_url, row.source_urls?.[0]].some((u) => typeof u === 'string' && /^https?:\/\//.test(u));
const ok = (a: Answer) => assert.equal(a.isError, false, JSON.stringify(a.body.error));
/** Empty or uncertain answers say what they covered. */
const statesCoverage = (a: Answer) => {
  assert.ok(a.body.coverage && typeof a.body.coverage === 'object', 'coverage stated');
  assert.ok(typeof a.body.explanation === 'string' && a.body.explanation.length > 20, 'explained');
};

/** A composite answer lists each record once, whatever section it is in. */
const noRowTwice = (body: Json, sections: string[]) => {
  const ids = sections.flatMap((s) => (body[s] as Json[]).map((r) => r.unified_id ?? r.law_id ?? r.enforcement_id ?? r.case_id ?? r.id));
  assert.equal(new Set(ids).size, ids.length, 'no row twice');
};

const SCENARIOS: Scenario[] = [
  {
    ask: 'Which national programmes help with business succession (事業承継)?',
    tool: 'search_programs',
    args: { q: '事業承継 補助金', limit: 20 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0);
      assert.ok(
        rows.some((r) => r.prefecture === null),
        'a nationwide programme is among them',
      );
    },
  },
  {
    ask: 'Find the IT導入補助金.',
    tool: 'search_programs',
    args: { q: 'IT導入補助金', limit: 5 },
    check(a) {
      ok(a);
      assert.ok(rowsOf(a.body).some((r) => String(r.primary_name).includes('IT導入')));
    },
  },
  {
    ask: 'Every programme row I cite has its source.',
    tool: 'search_programs',
    args: { q: '省エネ 設備', limit: 20 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0);
      assert.ok(rows.filter(cites).length >= rows.length * 0.8, 'most rows carry a source URL');
    },
  },
  {
    ask: 'What can a 20-person company in Osaka apply for?',
    tool: 'prescreen_programs',
    args: { prefecture: '大阪府', employee_count: 20, limit: 10 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0);
      assert.ok(
        rows.every((r) => r.prefecture === null || r.prefecture === undefined || r.prefecture === '大阪府'),
        'no other prefecture',
      );
    },
  },
  {
    ask: 'Can my client combine ものづくり補助金 and 事業再構築補助金? (no rule names them)',
    tool: 'check_exclusions',
    args: { program_ids: ['UNI-00000000aa', 'UNI-00000000bb'] },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'insufficient_data', 'not read as compatible');
      statesCoverage(a);
      assert.equal(a.body.coverage.rules_held, 22);
      assert.match(a.body.explanation, /unknown, not confirmed/);
    },
  },
  {
    ask: 'Combining 経営発展支援事業（初期投資促進タイプ） with 経営開始資金: any cap?',
    tool: 'check_exclusions',
    args: { program_ids: ['UNI-cfb34382d7', 'UNI-194743d166'] },
    check(a) {
      ok(a);
      assert.ok(
        a.body.hits.some((h: Json) => h.rule_id === 'excl-keiei-hatten-shoki-vs-keiei-kaishi-reduction'),
        'the slug-keyed cap rule fires',
      );
      assert.ok(
        a.body.hits.every((h: Json) => h.source_urls.length > 0),
        'each hit cites its source',
      );
    },
  },
  {
    ask: 'A new farmer wants 経営開始資金 and 青年等就農資金 together.',
    tool: 'check_exclusions',
    args: { program_ids: ['UNI-194743d166', 'UNI-08f87b0586'] },
    check(a) {
      ok(a);
      assert.ok(!a.body.hits.some((h: Json) => h.rule_id === 'excl-corp-established-vs-new-farmer-programs'), 'the conditional rule is no conflict');
      const corp = a.body.to_check.find((c: Json) => c.rule_id === 'excl-corp-established-vs-new-farmer-programs');
      assert.deepEqual(corp?.to_check, ['経営開始から5年以上経過した法人経営体']);
    },
  },
  {
    ask: 'Is this company (法人番号 1234567890123) barred from subsidies?',
    tool: 'check_enforcement_am',
    args: { houjin_bangou: '1234567890123' },
    check(a) {
      ok(a);
      assert.equal(a.body.found, false);
      statesCoverage(a);
      assert.ok(a.body.coverage.with_houjin_bangou < a.body.coverage.findings, 'few findings carry a number');
      assert.match(a.body.explanation, /only \d+ of them name a corporate number/);
      assert.match(a.body.explanation, /dated \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    },
  },
  {
    ask: 'Due diligence on 法人番号 1234567890123.',
    tool: 'dd_profile_am',
    args: { houjin_bangou: '1234567890123' },
    check(a) {
      ok(a);
      assert.ok(a.body.coverage?.enforcement?.findings > 0, 'enforcement coverage stated');
      assert.match(a.body.explanation, /not proof that none exists/);
    },
  },
  {
    ask: 'Any public tenders for construction work?',
    tool: 'search_bids',
    args: { q: '工事' },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'no_data');
      assert.match(a.body.explanation, /holds no bids/);
    },
  },
  {
    ask: 'Which application windows close in the next 30 days?',
    tool: 'upcoming_deadlines',
    args: { within_days: 30 },
    check(a) {
      ok(a);
      statesCoverage(a);
      assert.ok(a.body.coverage.programs_with_known_window < a.body.coverage.programs_total);
      assert.match(a.body.explanation, /windows are known for \d+ of \d+ programmes/);
    },
  },
  {
    ask: 'Deadlines by month for the next quarter.',
    tool: 'deadline_calendar',
    args: { months_ahead: 3 },
    check(a) {
      ok(a);
      statesCoverage(a);
      assert.match(a.body.explanation, /known for \d+ of \d+/);
    },
  },
  {
    ask: 'What is open for applications today?',
    tool: 'list_open_programs',
    args: {},
    check(a) {
      ok(a);
      statesCoverage(a);
    },
  },
  {
    ask: 'A 3-year funding roadmap for a manufacturer.',
    tool: 'subsidy_roadmap_3yr',
    args: { industry: '製造業', company_size: 'small' },
    check(a) {
      ok(a);
      statesCoverage(a);
    },
  },
  {
    ask: 'Which tax measures apply to a company with 10M yen capital that files blue returns?',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: { capital_yen: 10_000_000, is_wholly_owned_by_large_corp: false } },
    check(a) {
      ok(a);
      const reduced = a.body.results.find((r: Json) => String(r.ruleset_name).includes('法人税軽減税率'));
      assert.ok(reduced, 'the reduced corporate tax rate ruleset is evaluated');
      assert.equal(reduced.verdict, 'applies', 'capital_yen is read (the predicates say capital_jpy)');
      assert.ok(reduced.reasons.some((line: string) => line.startsWith('capital_yen=10000000')));
    },
  },
  {
    ask: 'Which tax measures apply? (no facts given)',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: {} },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'insufficient_data');
      assert.ok(a.body.coverage.fields_to_ask_for.includes('capital_yen'), 'says what to ask for, in the documented name');
    },
  },
  {
    ask: 'Find 租税特別措置法 (its status is not recorded).',
    tool: 'search_laws',
    args: { q: '租税特別措置法' },
    check(a) {
      ok(a);
      assert.ok(
        rowsOf(a.body).some((r) => r.title === '租税特別措置法'),
        'not hidden by the in-force default',
      );
    },
  },
  {
    ask: 'Quote 経営承継円滑化法 (a short name), article 1.',
    tool: 'get_law_article_am',
    args: { law_name_or_canonical_id: '経営承継円滑化法', article_number: '1' },
    check(a) {
      assert.equal(a.body.law?.title, '中小企業における経営の承継の円滑化に関する法律', 'the short name resolves');
    },
  },
  {
    ask: 'Quote article 1 of 租特法.',
    tool: 'get_law_article_am',
    args: { law_name_or_canonical_id: '租特法', article_number: '第1条' },
    check(a) {
      ok(a);
      assert.equal(a.body.found, true);
      assert.match(String(a.body.law?.source_url), /^https:\/\/elaws\.e-gov\.go\.jp\//, "the article carries its law's source");
    },
  },
  {
    ask: 'Quote article 42-4 of 租税特別措置法 (not in the shipped text).',
    tool: 'get_law_article_am',
    args: { law_name_or_canonical_id: '租税特別措置法', article_number: '第42条の4' },
    check(a) {
      assert.equal(a.isError, true, 'not found is a failure, not an empty answer');
      assert.match(a.body.error.hint, /only the first \d+ articles/, 'says what the shipped text covers');
    },
  },
  {
    ask: 'What does 中小企業経営強化税制 offer?',
    tool: 'search_tax_rules',
    args: { q: '経営強化税制' },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.some((r) => String(r.ruleset_name).includes('経営強化税制')));
      assert.ok(rows.every(cites));
    },
  },
  {
    ask: 'JFC loans without a personal guarantor.',
    tool: 'search_loan_programs',
    args: { q: '日本政策金融公庫', limit: 10 },
    check(a) {
      ok(a);
      assert.ok(rowsOf(a.body).length > 0);
    },
  },
  {
    ask: 'Court rulings on subsidy fraud.',
    tool: 'search_court_decisions',
    args: { q: '補助金' },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'no_data');
    },
  },
  {
    ask: 'Open a programme by a mistyped id.',
    tool: 'get_program',
    args: { unified_id: 'UNI-doesnotexist' },
    check(a) {
      assert.equal(a.isError, true);
      assert.equal(a.body.status, 'error');
      assert.equal(a.body.error.status, 404);
      assert.equal(typeof a.body.error.detail, 'string');
    },
  },
  {
    ask: 'Search with a tier that does not exist.',
    tool: 'search_programs',
    args: { tier: ['Z'] },
    check(a) {
      assert.equal(a.isError, true);
      assert.equal(a.body.error.detail, 'Invalid arguments: tier.0: must be one of S, A, B, C, X');
    },
  },
  {
    ask: 'Search with an argument the tool does not take.',
    tool: 'search_programs',
    args: { q: '補助金', limit: 1, colour: 'blue' },
    check(a) {
      ok(a);
      assert.ok(a.body.input_warnings.some((w: Json) => w.code === 'unknown_argument' && w.field === 'colour'));
    },
  },
  {
    ask: 'Regulations to prepare for a construction firm.',
    tool: 'regulatory_prep_pack',
    args: { industry: '建設' },
    check(a) {
      ok(a);
      for (const law of a.body.laws) assert.ok(cites(law) || law.law_id, 'each law is citable');
    },
  },
  {
    ask: 'A funding mix around equipment investment (設備投資).',
    tool: 'subsidy_combo_finder',
    args: { keyword: '設備投資' },
    check(a) {
      ok(a);
      assert.ok(a.body.results.length > 0);
      const listed = [...a.body.subsidies, ...a.body.loans, ...a.body.tax_measures];
      for (const row of listed) assert.ok(typeof row.why === 'string' && row.why.length > 0, 'each item says why it is there');
      noRowTwice(a.body, ['subsidies', 'loans', 'tax_measures']);
      const ids = new Set(listed.map((r) => r.unified_id));
      for (const combo of a.body.results) {
        assert.match(combo.exclusion_check, /rule held/);
        for (const part of [combo.subsidy, combo.loan, combo.tax_measure]) if (part) assert.ok(ids.has(part), `${part} is listed once below`);
      }
    },
  },
  {
    ask: 'Regulatory briefing for 建設: no off-target tax rulesets.',
    tool: 'regulatory_prep_pack',
    args: { industry: '建設' },
    check(a) {
      ok(a);
      for (const section of ['laws', 'certifications', 'tax_rulesets', 'enforcement_examples'])
        for (const row of a.body[section]) assert.match(row.why, /建設/);
      assert.equal(a.body.results, undefined, 'no merged list repeating the sections');
      assert.ok(Array.isArray(a.body.coverage.sections_without_a_match));
    },
  },
  {
    ask: 'A starter pack for a 10-person Tokyo company.',
    tool: 'smb_starter_pack',
    args: { prefecture: '東京都', employee_count: 10 },
    check(a) {
      ok(a);
      assert.ok(a.body.subsidies.length > 0);
      assert.ok(
        a.body.subsidies.every((r: Json) => r.prefecture === null || r.prefecture === undefined || r.prefecture === '東京都'),
        'no other prefecture',
      );
    },
  },
  {
    ask: 'Quote 事業承継税制: its legal basis and what is known of its requirements.',
    tool: 'search_tax_rules',
    args: { q: '事業承継税制' },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      const shokei = rows.filter((r) => String(r.ruleset_name).includes('事業承継税制'));
      assert.ok(shokei.length > 0, 'a tax ruleset of 事業承継税制');
      for (const r of shokei) {
        assert.ok(
          r.legal_basis.some((b: string) => b.startsWith('租税特別措置法')),
          'cites its article',
        );
        assert.equal(r.requirements_status, 'listed');
        assert.match(r.requirements_note, /Not held/, 'says which requirements are not held');
      }
      assert.ok(rows.every(cites));
    },
  },
  {
    ask: 'Does 事業承継税制 apply to this company? (requirements not held as a predicate)',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: { capital_yen: 10_000_000, is_wholly_owned_by_large_corp: false } },
    check(a) {
      ok(a);
      assert.ok(a.body.coverage.rulesets_without_predicate > 0);
      const shokei = a.body.results.filter((r: Json) => String(r.ruleset_name).includes('事業承継税制'));
      assert.ok(shokei.length > 0);
      for (const r of shokei) {
        assert.equal(r.verdict, 'unknown', 'never decided without a predicate');
        assert.match(r.reasons[0], /requirements listed, not as a predicate/);
      }
    },
  },
  {
    ask: 'A starter pack (nothing said about the company).',
    tool: 'smb_starter_pack',
    args: {},
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'insufficient_data', 'no list for a profile that says nothing');
      statesCoverage(a);
      assert.deepEqual(a.body.subsidies, []);
    },
  },
  {
    ask: 'What can a 30-person manufacturer in Aichi apply for?',
    tool: 'prescreen_programs',
    args: { prefecture: '愛知県', industry_jsic: 'E', employee_count: 30, limit: 20 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0);
      assert.ok(
        rows.some((r) => r.prefecture === null),
        'a national programme is among them',
      );
      for (const r of rows) {
        assert.ok(r.reasons.length > 0, 'each says why it fits');
        assert.ok(!r.unknowns?.some((u: Json) => u.kind === 'industry'), `no programme naming other industries: ${r.primary_name}`);
        assert.ok(r.prefecture === null || r.prefecture === '愛知県', 'no other prefecture');
      }
      assert.ok(a.body.coverage.set_aside, 'what was set aside is counted');
    },
  },
  {
    ask: 'A 3-year roadmap for a manufacturer: each programme once, each with why.',
    tool: 'subsidy_roadmap_3yr',
    args: { industry: '製造業', horizon_months: 36 },
    check(a) {
      ok(a);
      statesCoverage(a);
      if (a.body.status === 'insufficient_data') return; // no matched window in the horizon: said so, with coverage
      const listed = [...a.body.quarters.flatMap((q: Json) => q.programs), ...a.body.undated];
      const ids = listed.map((r: Json) => r.unified_id);
      assert.equal(new Set(ids).size, ids.length, 'no row twice');
      for (const r of listed) assert.ok(typeof r.why === 'string' && r.why.length > 0, 'says why');
      assert.equal(a.body.results, undefined, 'no merged list');
    },
  },
  {
    ask: 'Classify a question that says nothing.',
    tool: 'intent_of',
    args: { query: 'zzzz qqqq' },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'insufficient_data');
      statesCoverage(a);
    },
  },
  {
    ask: 'JFC loan rates, all in one unit.',
    tool: 'search_loan_programs',
    args: { provider: '日本政策金融公庫', fields: 'full', limit: 50 },
    check(a) {
      ok(a);
      const rated = rowsOf(a.body).filter((r) => typeof r.interest_rate_base_annual === 'number');
      assert.ok(rated.length > 0);
      for (const r of rated) assert.ok(r.interest_rate_base_annual >= 0.1, `per cent, not a fraction: ${r.interest_rate_base_annual}`);
      assert.ok(
        rated.some((r) => /rate-fraction-to-percent/.test(r.provenance?.interest_rate_base_annual ?? '')),
        'the value read into per cent says so',
      );
    },
  },
  {
    ask: 'A compact answer, the full record on request, the licence once.',
    tool: 'search_programs',
    args: { q: 'ものづくり補助金', limit: 5 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0);
      for (const r of rows) {
        assert.equal(r.a_to_j_coverage, undefined, 'compact by default');
        assert.equal(r.attribution, undefined, 'no attribution per row');
      }
      assert.ok(Array.isArray(a.body.attribution) && a.body.attribution.length === 1, 'attribution once');
      assert.ok(a.body.attribution[0].license);
    },
  },
  {
    ask: 'A starter pack for a 20-person manufacturer in Osaka: nothing for other industries.',
    tool: 'smb_starter_pack',
    args: { prefecture: '大阪府', industry_jsic: 'E', employee_count: 20 },
    check(a) {
      ok(a);
      const listed = [...a.body.subsidies, ...a.body.loans, ...a.body.tax_measures];
      assert.ok(listed.length > 0);
      for (const r of listed) {
        assert.ok(typeof r.why === 'string' && r.why.length > 0, 'says why');
        assert.ok(!r.unknowns?.some((u: Json) => u.kind === 'industry'), `no programme naming other industries: ${r.primary_name ?? r.ruleset_name}`);
      }
      noRowTwice(a.body, ['subsidies', 'loans', 'tax_measures']);
      assert.ok(a.body.coverage.set_aside.other_industry >= 0, 'what was set aside is counted');
    },
  },
  {
    ask: 'Pre-application check for a company with 10M yen capital: which tax measures apply, what to ask for.',
    tool: 'combined_compliance_check',
    args: { business_profile: { capital_yen: 10_000_000, is_wholly_owned_by_large_corp: false }, top_bids: 0 },
    check(a) {
      ok(a);
      assert.ok(a.body.tax.length > 0);
      for (const t of a.body.tax) assert.equal(t.verdict, 'applies', 'the tax section lists what applies');
      assert.ok(a.body.coverage.tax_rulesets_undecided > 0 && a.body.coverage.fields_to_ask_for.length > 0, 'the undecided are counted, with what to ask');
      assert.equal(a.body.results, undefined, 'no merged list');
    },
  },
  // Requests an adviser brings (issue 22, second trial): what the owner wants in words, tax by the facts given.
  {
    ask: 'A café in 福岡 (3 staff) wants to renovate the shop and hire: what can it apply for?',
    tool: 'prescreen_programs',
    args: { prefecture: '福岡県', industry_jsic: 'M', employee_count: 3, need: '店舗を改装して従業員を雇いたい', limit: 10 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.equal(rows.length, 10, 'a short need match is topped up with what fits the profile');
      assert.ok(a.body.coverage.matching_the_need > 0, 'the need is read');
      const firstProfile = rows.findIndex((r) => r.match === 'profile');
      assert.ok(
        rows[0].match === 'need' && (firstProfile === -1 || rows.slice(firstProfile).every((r) => r.match === 'profile')),
        'need matches first, each row says which',
      );
      assert.ok(
        rows.every((r) => r.prefecture === null || r.prefecture === '福岡県'),
        'no other prefecture',
      );
      assert.ok(rows.every(cites), 'every row cites its source');
      noRowTwice({ results: rows }, ['results']);
    },
  },
  {
    ask: 'A manufacturer in 愛知 (45 staff, capital 3,000万円) replacing old machines with energy-saving ones: subsidies, loans, tax.',
    tool: 'smb_starter_pack',
    args: { prefecture: '愛知県', industry_jsic: 'E', employee_count: 45, capital_yen: 30_000_000, need: '古い機械を省エネ設備に入れ替えたい' },
    check(a) {
      ok(a);
      assert.ok(
        a.body.subsidies.some((r: Json) => r.match === 'need' && /省エネ/.test(String(r.primary_name))),
        'an energy-saving subsidy, matched to the need',
      );
      assert.ok(a.body.tax_measures.length > 0, 'the capital given opens the SME tax measures');
      for (const r of [...a.body.subsidies, ...a.body.loans, ...a.body.tax_measures]) {
        assert.ok(typeof r.why === 'string' && r.why.length > 0, 'says why');
        assert.ok(r.prefecture === null || r.prefecture === undefined || r.prefecture === '愛知県', 'no other prefecture');
      }
      noRowTwice(a.body, ['subsidies', 'loans', 'tax_measures']);
    },
  },
  {
    ask: 'Which tax measures are open to a company with capital 3,000万円 that files blue returns?',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: { capital_yen: 30_000_000, blue_form_return_filed: true } },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'ok', 'measures the facts given leave open are an answer, not insufficient_data');
      assert.ok(a.body.coverage.open_to_check > 0);
      const rows = rowsOf(a.body);
      assert.ok(
        rows[0].conditions_met?.some((c: string) => c.startsWith('capital_yen=30000000')),
        'the open measures come first, with what is met',
      );
      assert.ok(rows[0].missing_fields.length > 0, 'and what is still to check');
      const open = rows.filter((r) => r.conditions_met);
      assert.equal(open.length, a.body.coverage.open_to_check);
      assert.ok(
        rows.slice(0, open.length).every((r) => r.conditions_met),
        'none buried under measures the profile says nothing about',
      );
      assert.ok(open.some((r) => String(r.ruleset_name).includes('中小企業投資促進税制')));
    },
  },
  {
    ask: 'Does 中小企業投資促進税制 apply to machinery of 200万円 bought by a company with capital 3,000万円?',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: { capital_yen: 30_000_000, blue_form_return_filed: true, asset_category: 'machinery', asset_acquisition_price_yen: 2_000_000 } },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      const invest = rows.filter((r) => String(r.ruleset_name).includes('中小企業投資促進税制'));
      assert.ok(invest.length > 0);
      for (const r of invest) assert.equal(r.verdict, 'applies', 'a set given as `values` is read');
      assert.equal(rows[0].verdict, 'applies', 'what applies comes first');
    },
  },
  {
    ask: 'A startup wants its first loan without a personal guarantor (創業融資, 無保証).',
    tool: 'search_loans_am',
    args: { loan_kind: 'sogyo', no_personal_guarantor: true },
    check(a) {
      ok(a);
      assert.notEqual(a.body.status, 'empty', 'not read as "no such loan"');
      if (a.body.status !== 'ok') {
        statesCoverage(a);
        assert.ok(a.body.coverage.records_held > 0);
        assert.match(a.body.explanation, /name_query/, 'says how to search instead');
      }
      assert.ok(
        a.body.input_warnings?.some((w: Json) => w.field === 'loan_kind' && w.code === 'unsupported_filter'),
        'a kind the records do not carry is not a silent filter',
      );
    },
  },
  {
    ask: 'What deadlines are coming up for 省エネ in the next three months?',
    tool: 'upcoming_deadlines',
    args: { q: '省エネ', within_days: 90 },
    check(a) {
      ok(a);
      statesCoverage(a);
      assert.ok(a.body.coverage.programs_with_known_window > 0, 'how many windows are known');
      assert.ok(a.body.undated.length > 0, 'the programmes on the topic whose window is not recorded are listed apart');
      for (const r of a.body.undated) {
        assert.match(r.why, /window not recorded/);
        assert.ok('official_url' in r, 'where to check, or null when no source is held');
      }
    },
  },
  {
    ask: 'Can my client combine 小規模事業者持続化補助金 with デジタル化・AI導入補助金?',
    tool: 'check_exclusions',
    args: { program_ids: ['UNI-aee24f11e3', 'UNI-e3d789d780'] },
    check(a) {
      ok(a);
      assert.equal(a.body.status, 'insufficient_data', 'no rule names them: not read as compatible');
      statesCoverage(a);
      assert.equal(a.body.coverage.where_to_check.length, 2, 'each programme to check, by name');
      for (const p of a.body.coverage.where_to_check) assert.ok(cites(p), 'with its source');
    },
  },
  {
    ask: 'Has 長岡運輸 been sanctioned? (a name, no corporate number)',
    tool: 'check_enforcement_am',
    args: { target_name: '長岡運輸' },
    check(a) {
      ok(a);
      assert.equal(a.body.found, true);
      assert.match(a.body.explanation, /exclusion is (not )?in force|no exclusion is in force/, 'says whether anything is in force');
      assert.match(a.body.explanation, /confirm it is the same company by its corporate number/, 'a name match is not an identification');
      assert.ok(a.body.recent_history.every((h: Json) => cites(h)));
    },
  },
  {
    ask: 'When is the デジタル化・AI導入補助金 window? (not recorded)',
    tool: 'get_program',
    args: { unified_id: 'UNI-e3d789d780' },
    check(a) {
      ok(a);
      assert.ok(a.body.coverage.not_recorded.includes('application window'), 'an empty window is said, not left to be read as open');
      assert.ok(a.body.explanation.includes(a.body.record.official_url), 'where to read it');
    },
  },
  {
    ask: 'What can a 飲食店 in 福岡 apply for? (the industry given as a word, not a JSIC code)',
    tool: 'prescreen_programs',
    args: { prefecture: '福岡県', industry_jsic: '飲食店', employee_count: 3, limit: 5 },
    check(a) {
      ok(a);
      assert.ok(rowsOf(a.body).length > 0, 'answered, not refused');
      assert.ok(
        a.body.input_warnings?.some((w: Json) => w.field === 'industry_jsic' && /JSIC M/.test(w.message)),
        'says how the word was read',
      );
    },
  },
  {
    ask: 'Tax measures for a company (profile keys as an agent guesses them: capital, blue_return).',
    tool: 'evaluate_tax_applicability',
    args: { business_profile: { capital: 30_000_000, blue_return: true } },
    check(a) {
      ok(a);
      const warned = (a.body.input_warnings ?? []) as Json[];
      assert.ok(
        warned.some((w) => w.field === 'business_profile.capital' && /capital_yen/.test(w.message)),
        'a key no predicate reads is said, with the documented name',
      );
      assert.ok(warned.some((w) => w.field === 'business_profile.blue_return' && /blue_form_return_filed/.test(w.message)));
    },
  },
  {
    ask: 'Cases like a café in 福岡 that renovated its shop and won more customers (a sentence, not keywords).',
    tool: 'similar_cases',
    args: { description: 'カフェの店舗改装で客数を増やした', industry_jsic: '飲食店', prefecture: '福岡県', limit: 5 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      assert.ok(rows.length > 0, 'cases of the industry, not an empty answer');
      for (const r of rows) assert.match(r.why, /same industry/, 'each says what it shares');
      if (a.body.coverage?.description_matched === 0) assert.match(a.body.explanation, /No case matched the description/, 'and that the words matched nothing');
    },
  },
  {
    ask: 'What helps with raising wages (賃上げ)? (no place said)',
    tool: 'search_programs',
    args: { q: '賃上げ 助成金', limit: 20 },
    check(a) {
      ok(a);
      const rows = rowsOf(a.body);
      const local = rows.filter((r) => typeof r.prefecture === 'string');
      assert.ok(local.length > 0, 'the search lists local programmes too');
      assert.match(a.body.explanation, /local/, 'says which rows are local to a place');
      assert.ok(
        a.body.suggested_actions?.some((s: string) => s.includes('applicable_in')),
        'and how to keep what one applicant can use',
      );
    },
  },
  {
    ask: 'Can ものづくり補助金 be combined with 事業再構築補助金? (names, one of them named by a rule)',
    tool: 'check_exclusions',
    args: { program_ids: ['ものづくり補助金', '事業再構築補助金'] },
    check(a) {
      ok(a);
      if (a.body.hits.length > 0 || a.body.to_check.length > 0) return;
      assert.equal(a.body.status, 'insufficient_data', 'a programme no rule names leaves the combination unknown, not "no conflict"');
      statesCoverage(a);
      assert.ok(a.body.coverage.programs_no_rule_names.length > 0);
      assert.ok(
        a.body.suggested_actions?.some((s: string) => s.includes('search_programs')),
        'how to find the record of a name',
      );
    },
  },
  {
    ask: 'A funding mix for energy-saving equipment in 愛知 (省エネ設備: words no loan or tax ruleset name carries).',
    tool: 'subsidy_combo_finder',
    args: { keyword: '省エネ設備', prefecture: '愛知県' },
    check(a) {
      ok(a);
      assert.ok(a.body.results.length > 0);
      assert.ok(a.body.loans.length + a.body.tax_measures.length > 0, 'the slots are not left empty for want of a literal match');
      const listed = [...a.body.subsidies, ...a.body.loans, ...a.body.tax_measures];
      for (const row of listed) assert.ok(typeof row.why === 'string' && row.why.length > 0, 'each item says why it is there');
      if (a.body.coverage.loans_matching === 0) for (const l of a.body.loans) assert.match(l.why, /^the matching engine: /);
      noRowTwice(a.body, ['subsidies', 'loans', 'tax_measures']);
      const ids = new Set(listed.map((r) => r.unified_id));
      for (const combo of a.body.results) for (const part of [combo.subsidy, combo.loan, combo.tax_measure]) if (part) assert.ok(ids.has(part));
    },
  },
];

async function runAll(client: Client): Promise<string[]> {
  const failures: string[] = [];
  for (const s of SCENARIOS) {
    const r = await client.callTool({ name: s.tool, arguments: s.args });
    const answer = { isError: r.isError === true, body: r.structuredContent as Json };
    try {
      s.check(answer);
    } catch (err) {
      failures.push(`${s.ask} (${s.tool}): ${(err as Error).message}\n  ${JSON.stringify(answer.body).slice(0, 400)}`);
    }
  }
  return failures;
}

test('at least 25 consultant scenarios', () => {
  assert.ok(SCENARIOS.length >= 25, `${SCENARIOS.length} scenarios`);
});

test('consultant scenarios over stdio and Streamable HTTP', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const { key } = await paidKey(app);

  const stdio = new Client({ name: 'scenarios-stdio', version: '1.0.0' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--disable-warning=ExperimentalWarning', BIN],
      env: { PATH: process.env.PATH ?? '', JPSP_API_BASE_URL: `http://127.0.0.1:${port}`, JPSP_API_KEY: key },
      stderr: 'pipe',
    }),
  );
  t.after(() => stdio.close());
  const http = new Client({ name: 'scenarios-http', version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { 'X-API-Key': key } } }));
  t.after(() => http.close());

  for (const [name, client] of [
    ['stdio', stdio],
    ['http', http],
  ] as const) {
    await client.listTools(); // the client validates structured content against the listed output schemas
    const failures = await runAll(client);
    assert.deepEqual(failures, [], `${name}: ${failures.length} scenario(s) failed:\n${failures.join('\n')}`);
  }
});
