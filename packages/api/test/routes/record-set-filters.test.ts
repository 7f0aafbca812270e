// The record-set filters the MCP tools advertise, on real records of the
// bundled dataset: each filter keeps exactly the rows whose fields satisfy it,
// and REST accepts the tools' parameter names as aliases of the same filter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import { lawType } from '../../src/catalog/record-sets/laws.ts';

type Page = { total: number; results: Record<string, any>[] };
const ENV = { ANON_DAILY_LIMIT: '1000000' };

async function search(app: FastifyInstance, set: string, query: Record<string, string | number>, status = 200): Promise<Page> {
  const url = `/v1/${set}/search?${new URLSearchParams(Object.entries({ limit: 100, ...query }).map(([k, v]) => [k, String(v)]))}`;
  const res = await app.inject(url);
  assert.equal(res.statusCode, status, `${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
  return body<Page>(res);
}

/** Every row of a filtered search satisfies `holds`, and the alias answers the same rows. */
async function filterHolds(
  app: FastifyInstance,
  set: string,
  name: string,
  alias: string | null,
  value: string | number,
  holds: (row: Record<string, any>) => boolean,
): Promise<Page> {
  const page = await search(app, set, { [name]: value });
  assert.ok(page.total > 0, `${set} ${name}=${value} finds records`);
  for (const row of page.results) assert.ok(holds(row), `${set} ${name}=${value}: ${JSON.stringify(row).slice(0, 200)}`);
  if (alias) {
    const same = await search(app, set, { [alias]: value });
    assert.deepEqual(same, page, `${alias} is an alias of ${name}`);
  }
  return page;
}

const lawNames = (r: Record<string, any>) => [r.related_law_text ?? '', ...(r.related_laws ?? []).map((l: any) => l.law_name ?? '')];

test('enforcement: action type, statute, program name, improper amount, and the tool names as aliases', async (t) => {
  const app = await build(t, ENV);
  const actions = await filterHolds(app, 'enforcement', 'action_type', 'event_type', '業務改善命令', (r) => r.action_type === '業務改善命令');
  assert.equal(actions.total, 109);
  // The statute is in related_law_text (corporate actions) or related_laws (findings): both are searched.
  const fiea = await filterHolds(app, 'enforcement', 'related_law', 'legal_basis', '金融商品取引法', (r) =>
    lawNames(r).some((n) => n.includes('金融商品取引法')),
  );
  assert.ok(fiea.results.some((r) => r.related_law_text?.includes('金融商品取引法')));
  const employment = await filterHolds(app, 'enforcement', 'related_law', 'legal_basis', '雇用保険法', (r) =>
    lawNames(r).some((n) => n.includes('雇用保険法')),
  );
  assert.ok(employment.total > 400, 'the labour-bureau findings name 雇用保険法 in related_laws');
  assert.ok((await search(app, 'enforcement', { legal_basis: '雇用保険法', limit: 100, offset: 400 })).results.length > 0);
  await filterHolds(app, 'enforcement', 'program_name', 'program_name_hint', 'IT導入', (r) => r.program_name_at_publication.includes('IT導入'));
  const large = await filterHolds(
    app,
    'enforcement',
    'min_improper_amount_yen',
    'min_improper_grant_yen',
    10_000_000,
    (r) => r.improper_amount_yen >= 10_000_000,
  );
  assert.equal(large.total, 532);
  const band = await search(app, 'enforcement', { min_improper_grant_yen: 1_000_000, max_improper_grant_yen: 2_000_000 });
  assert.equal(band.total, 152);
  assert.ok(band.results.every((r) => r.improper_amount_yen >= 1_000_000 && r.improper_amount_yen <= 2_000_000));
  await search(app, 'enforcement', { min_improper_amount_yen: 2, max_improper_amount_yen: 1 }, 400);

  // The tools' names of the filters REST already had.
  await filterHolds(app, 'enforcement', 'authority', 'ministry', '金融庁', (r) => `${r.authority}${r.bureau ?? ''}`.includes('金融庁'));
  await filterHolds(app, 'enforcement', 'decided_from', 'disclosed_from', '2025-06-01', (r) => r.action_date >= '2025-06-01');
  await filterHolds(app, 'enforcement', 'decided_to', 'disclosed_until', '2023-01-01', (r) => r.action_date.slice(0, 10) <= '2023-01-01');
  await filterHolds(app, 'enforcement', 'houjin_bangou', 'recipient_houjin_bangou', '6010401117444', (r) => r.houjin_bangou === '6010401117444');
  // Two names of one filter: the same value is fine, different values are a 400; a bad date under the alias names the alias.
  assert.equal(
    (await search(app, 'enforcement', { authority: '金融庁', ministry: '金融庁' })).total,
    (await search(app, 'enforcement', { authority: '金融庁' })).total,
  );
  const conflict = await app.inject(`/v1/enforcement/search?authority=a&ministry=b`);
  assert.equal(conflict.statusCode, 400);
  assert.match(body(conflict).detail, /authority and ministry/);
  assert.match(body(await app.inject('/v1/enforcement/search?disclosed_from=2025-02-30')).detail, /disclosed_from: not a calendar date/);
});

test("loans: provider, loan type, amount, rate and term, and the tools' names of the risk axes", async (t) => {
  const app = await build(t, ENV);
  await filterHolds(app, 'loans', 'provider', null, '商工会議所', (r) => r.provider.includes('商工会議所'));
  const special = await filterHolds(app, 'loans', 'loan_type', null, 'special_rate', (r) => r.loan_type === 'special_rate');
  assert.deepEqual(
    special.results.map((r) => r.id),
    ['1'],
  );
  const amountYen = (r: Record<string, any>) => r.amount_max_yen ?? r.amount_max_man_yen * 10_000;
  const big = await filterHolds(app, 'loans', 'min_amount_yen', null, 50_000_000, (r) => amountYen(r) >= 50_000_000);
  assert.ok(big.results.some((r) => r.amount_max_man_yen !== null) && big.results.some((r) => r.loan_id !== null), 'both amount fields count');
  await filterHolds(app, 'loans', 'max_amount_yen', null, 1_000_000, (r) => amountYen(r) <= 1_000_000);
  await search(app, 'loans', { min_amount_yen: 2, max_amount_yen: 1 }, 400);
  // Only the two JFC products state a rate and a term. Rates are per cent: product 1's source writes its
  // base rate as the fraction 0.041, read at ingest as 4.1 (loans.ts ratesInPercent), so it is above 2.
  assert.deepEqual(
    (await search(app, 'loans', { max_interest_rate: 2 })).results.map((r) => r.id),
    ['12'],
  );
  assert.equal((await search(app, 'loans', { max_interest_rate: 1 })).total, 0);
  const product1 = (await search(app, 'loans', { max_interest_rate: 5 })).results.find((r) => r.id === '1');
  assert.equal(product1?.interest_rate_base_annual, 4.1);
  assert.match(product1?.provenance?.interest_rate_base_annual, /^derived:rate-fraction-to-percent: the source gives 0.041/);
  assert.equal((await search(app, 'loans', { min_loan_period_years: 20 })).total, 2);
  assert.equal((await search(app, 'loans', { min_loan_period_years: 21 })).total, 0);
  await filterHolds(app, 'loans', 'collateral', 'collateral_required', 'negotiable', (r) => r.collateral_required === 'negotiable');
  await filterHolds(app, 'loans', 'personal_guarantor', 'personal_guarantor_required', 'negotiable', (r) => r.personal_guarantor_required === 'negotiable');
  await filterHolds(
    app,
    'loans',
    'third_party_guarantor',
    'third_party_guarantor_required',
    'not_required',
    (r) => r.third_party_guarantor_required === 'not_required',
  );
});

test('lawType: a law number decides; without one, only a title that cannot be another type does', () => {
  // A 施行規則 without a number may be a ministerial ordinance: it is left untyped rather than guessed.
  assert.equal(lawType('労働基準法施行規則', null), null);
  assert.equal(lawType('労働基準法施行規則', '昭和二十二年厚生省令第二十三号'), 'ministerial_ordinance');
  assert.equal(lawType('法人税法施行令', null), 'cabinet_order');
});

test('laws: the type of instrument from the law number, ministry as an alias of ministry_code', async (t) => {
  const app = await build(t, ENV);
  const constitution = await search(app, 'laws', { law_type: 'constitution' });
  assert.deepEqual(
    constitution.results.map((r) => r.title),
    ['日本国憲法'],
  );
  const byNumber: Record<string, RegExp> = {
    act: /年法律/,
    cabinet_order: /年政令/,
    imperial_order: /年勅令/,
    ministerial_ordinance: /(省|府|閣|庁)令/,
    rule: /規則/,
  };
  for (const [type, pattern] of Object.entries(byNumber)) {
    await filterHolds(app, 'laws', 'law_type', null, type, (r) => (r.law_number ? pattern.test(r.law_number) : lawType(r.title, null) === type));
  }
  await search(app, 'laws', { law_type: 'notice' }, 400);
  await filterHolds(app, 'laws', 'ministry_code', 'ministry', 'mhlw', (r) => r.ministry_code === 'mhlw');
});

test("case studies: the tools' names of jsic_code, pattern_tag and the employee range", async (t) => {
  const app = await build(t, ENV);
  await filterHolds(app, 'case_studies', 'jsic_code', 'industry_jsic', 'D', (r) => r.jsic_code.startsWith('D'));
  await filterHolds(app, 'case_studies', 'pattern_tag', 'program_used', 'DX/デジタル化', (r) => r.pattern_tags.includes('DX/デジタル化'));
  await filterHolds(app, 'case_studies', 'employees_min', 'min_employees', 300, (r) => r.employees >= 300);
  await filterHolds(app, 'case_studies', 'employees_max', 'max_employees', 3, (r) => r.employees <= 3);
  await search(app, 'case_studies', { min_employees: 20, max_employees: 10 }, 400);
});

test('tax rulesets by authority; certifications by certifying body (alias authority)', async (t) => {
  const app = await build(t, ENV);
  const nta = await filterHolds(app, 'tax_rulesets', 'authority', null, '国税庁', (r) => String(r.authority).includes('国税庁'));
  // 44 upstream rulesets plus 3 reviewed additions administered by 国税庁 (data/overrides/tax-rulesets.jsonl)
  assert.equal(nta.total, 47);
  const chusho = await filterHolds(app, 'certifications', 'provider', 'authority', '中小企業庁', (r) => String(r.provider).includes('中小企業庁'));
  assert.equal(chusho.total, 3);
});

test('the loan filters list their values: /v1/am/enums/loan_type and loan_provider count loans_mutual_aid', async (t) => {
  const app = await build(t, ENV);
  for (const [name, column] of [
    ['loan_type', 'loan_type'],
    ['loan_provider', 'provider'],
  ] as const) {
    const res = body<{ values: string[]; frequency_map: Record<string, number>; error: unknown }>(await app.inject(`/v1/am/enums/${name}`));
    assert.equal(res.error, null);
    assert.ok(res.values.length > 0, `${name} has values`);
    const first = res.values[0];
    const filtered = await search(app, 'loans', { [column]: first });
    assert.ok(filtered.total >= res.frequency_map[first], `${column}=${first} finds the counted loans`);
  }
});

test('loans: loan_kind, plan_kind and tax_deduction_type, the filters /v1/am/loans and /v1/am/mutual_plans read through', async (t) => {
  const app = await build(t, ENV);
  await filterHolds(app, 'loans', 'loan_kind', null, 'special_rate', (r) => r.loan_type === 'special_rate' || r.program_kind === 'special_rate');
  await filterHolds(app, 'loans', 'loan_kind', null, 'loan', (r) => r.loan_type === 'loan' || r.program_kind === 'loan');
  const bankruptcy = await filterHolds(
    app,
    'loans',
    'plan_kind',
    null,
    'bankruptcy_mutual',
    (r) => r.plan_type === 'mutual_aid' && r.plan_kind === 'bankruptcy_mutual',
  );
  const am = body<{ total: number; results: { id: string }[] }>(await app.inject('/v1/am/mutual_plans?plan_kind=bankruptcy_mutual&limit=100'));
  assert.deepEqual(
    am.results.map((r) => r.id),
    bankruptcy.results.map((r) => r.id),
    'the /v1/am tool reads the same rows',
  );
  await filterHolds(app, 'loans', 'tax_deduction_type', null, 'corp_expense', (r) => r.plan_type === 'mutual_aid' && r.tax_deduction_type === 'corp_expense');
  assert.equal((await search(app, 'loans', { plan_type: 'loan', plan_kind: 'other' })).total, 0, 'loans have no plan kind');
  await search(app, 'loans', { plan_kind: 'lottery' }, 400);
});
