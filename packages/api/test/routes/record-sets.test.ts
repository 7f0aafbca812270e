// The related record sets over HTTP: loans, tax rulesets, enforcement, laws
// (+ articles), case studies, certifications. Shapes, every filter, paging,
// 404s and hostile inputs (4xx or a normal result, never 500).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';

const ENV = { ANON_DAILY_LIMIT: '1000000' };
type Page = { total: number; limit: number; offset: number; results: Record<string, any>[]; attribution: Record<string, unknown> };

async function get(app: FastifyInstance, url: string, status = 200): Promise<any> {
  const res = await app.inject(url);
  assert.equal(res.statusCode, status, `${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
  return body(res);
}

function assertEnvelope(page: Page, limit: number, offset: number): void {
  assert.deepEqual(Object.keys(page).sort(), ['attribution', 'limit', 'offset', 'results', 'total']);
  assert.equal(page.limit, limit);
  assert.equal(page.offset, offset);
  assert.deepEqual(Object.keys(page.attribution).sort(), ['edited', 'license', 'notice', 'source', 'source_url']);
  for (const row of page.results) assert.ok('source_url' in row, 'every row carries source_url');
}

const SEARCHES = [
  '/v1/loans/search',
  '/v1/tax_rulesets/search',
  '/v1/enforcement/search',
  '/v1/laws/search',
  '/v1/case_studies/search',
  '/v1/certifications/search',
  '/v1/bids/search',
];

test('every search: envelope, default and explicit paging, offset past the end, limit/offset bounds', async (t) => {
  const app = await build(t, ENV);
  for (const path of SEARCHES) {
    const first = await get(app, path);
    assertEnvelope(first, 20, 0);
    if (first.total > 3) {
      const page2 = await get(app, `${path}?limit=2&offset=1`);
      assertEnvelope(page2, 2, 1);
      assert.equal(page2.total, first.total);
      assert.deepEqual(page2.results, first.results.slice(1, 3), `${path}: offset 1 continues the same order`);
    }
    const past = await get(app, `${path}?offset=${first.total + 5}`);
    assert.equal(past.total, first.total);
    assert.deepEqual(past.results, []);
    for (const bad of ['limit=0', 'limit=101', 'limit=-1', 'offset=-1', 'limit=abc', 'unknown_param=1']) {
      const err = await get(app, `${path}?${bad}`, 400);
      assert.equal(typeof err.detail, 'string', `${path}?${bad}`);
    }
  }
});

test('loans: risk axes, unknown for rows without them, plan_type, q, detail by unified_id and loan_id', async (t) => {
  const app = await build(t, ENV);
  const all = await get(app, '/v1/loans/search?limit=100');
  assert.equal(all.total, 516);
  const neg = await get(app, '/v1/loans/search?collateral=negotiable');
  assert.equal(neg.total, 2, 'only the two JFC products state the axes');
  assert.ok(neg.results.every((r: any) => r.collateral_required === 'negotiable'));
  const third = await get(app, '/v1/loans/search?third_party_guarantor=not_required');
  assert.deepEqual(
    third.results.map((r: any) => r.id),
    ['12'],
  );
  const both = await get(app, '/v1/loans/search?personal_guarantor=negotiable&third_party_guarantor=negotiable');
  assert.deepEqual(
    both.results.map((r: any) => r.id),
    ['1'],
  );
  const unknown = await get(app, '/v1/loans/search?collateral=unknown&limit=1');
  assert.equal(unknown.total, 514);
  assert.equal(unknown.results[0].personal_guarantor_required, 'unknown');
  await get(app, '/v1/loans/search?collateral=maybe', 400);
  const mutual = await get(app, '/v1/loans/search?plan_type=mutual_aid&limit=100');
  assert.ok(mutual.total > 0 && mutual.results.every((r: any) => r.plan_type === 'mutual_aid'));
  const q = await get(app, `/v1/loans/search?q=${encodeURIComponent('スタートアップ')}`);
  assert.ok(q.results.some((r: any) => r.id === '1'));
  const jfc = await get(app, '/v1/loans/1');
  assert.equal(jfc.loan_id, 1);
  assert.equal(typeof jfc.attribution, 'object');
  const byUid = await get(app, `/v1/loans/${all.results.find((r: any) => r.unified_id).unified_id}`);
  assert.ok(byUid.unified_id.startsWith('UNI-'));
  await get(app, '/v1/loans/UNI-doesnotexist', 404);
});

test('tax rulesets: rule_name / effective_to / sunset_date, effective_on, category and kind filters', async (t) => {
  const app = await build(t, ENV);
  const all = await get(app, '/v1/tax_rulesets/search?limit=100');
  // the 50 upstream rulesets and the 4 reviewed additions (data/overrides/tax-rulesets.jsonl, decision 0398)
  assert.equal(all.total, 54);
  for (const r of all.results) {
    assert.equal(r.rule_name, r.ruleset_name);
    assert.equal(r.effective_to, r.effective_until);
    assert.ok('sunset_date' in r);
  }
  // TAX-e1854fe12c: 2023-10-01 .. 2026-09-30; TAX-ebd4a820aa starts 2026-10-01.
  const inForce = await get(app, '/v1/tax_rulesets/search?effective_on=2024-06-01&limit=100');
  const ids = inForce.results.map((r: any) => r.unified_id);
  assert.ok(ids.includes('TAX-e1854fe12c'));
  assert.ok(!ids.includes('TAX-ebd4a820aa'));
  for (const r of inForce.results) {
    // an unknown start (two reviewed additions state none) is open, as the filter reads it
    assert.ok((r.effective_from === null || r.effective_from <= '2024-06-01') && (r.effective_until === null || r.effective_until >= '2024-06-01'));
  }
  const later = await get(app, '/v1/tax_rulesets/search?effective_on=2027-01-01&limit=100');
  assert.ok(!later.results.some((r: any) => r.unified_id === 'TAX-e1854fe12c'));
  for (const bad of ['2024-13-01', '2024-02-30', '20240101', 'yesterday', '2024-1-1']) {
    await get(app, `/v1/tax_rulesets/search?effective_on=${bad}`, 400);
  }
  const corp = await get(app, '/v1/tax_rulesets/search?tax_category=corporate&limit=100');
  assert.equal(corp.total, 23, '21 upstream and 2 reviewed additions');
  const credit = await get(app, '/v1/tax_rulesets/search?ruleset_kind=credit&limit=100');
  assert.ok(credit.total > 0 && credit.results.every((r: any) => r.ruleset_kind === 'credit'));
  const invoice = await get(app, `/v1/tax_rulesets/search?q=${encodeURIComponent('インボイス')}`);
  assert.ok(
    invoice.results.some((r: any) => r.unified_id === 'TAX-a84bb28afb'),
    'インボイス finds 適格請求書 rulesets',
  );
  const one = await get(app, '/v1/tax_rulesets/TAX-e1854fe12c');
  assert.equal(one.rule_name, one.ruleset_name);
  assert.equal(one.sunset_date, '2026-09-30');
  await get(app, '/v1/tax_rulesets/TAX-0000000000', 404);
});

test('enforcement: authority, decided_from/to, houjin_bangou, source_family, prefecture, q, detail', async (t) => {
  const app = await build(t, ENV);
  const fsa = await get(app, `/v1/enforcement/search?authority=${encodeURIComponent('金融庁')}&limit=100`);
  assert.ok(fsa.total > 0 && fsa.results.every((r: any) => r.authority.includes('金融庁') || (r.bureau ?? '').includes('金融庁')));
  const range = await get(app, '/v1/enforcement/search?decided_from=2025-01-01&decided_to=2025-12-31&limit=100');
  assert.ok(range.total > 0 && range.results.every((r: any) => r.action_date >= '2025-01-01' && r.action_date <= '2025-12-31'));
  const ordered = range.results.map((r: any) => r.action_date);
  assert.deepEqual(ordered, [...ordered].sort().reverse(), 'newest first');
  const hb = await get(app, '/v1/enforcement/search?houjin_bangou=6010401117444');
  assert.ok(hb.total >= 1 && hb.results.every((r: any) => r.houjin_bangou === '6010401117444'));
  await get(app, '/v1/enforcement/search?houjin_bangou=123', 400);
  const fam = await get(app, '/v1/enforcement/search?source_family=mhlw_fraud&limit=1');
  assert.equal(fam.total, 476);
  const pref = await get(app, `/v1/enforcement/search?prefecture=${encodeURIComponent('千葉県')}&limit=100`);
  assert.ok(pref.total > 0 && pref.results.every((r: any) => r.prefecture === '千葉県'));
  const q = await get(app, '/v1/enforcement/search?q=EduLab');
  assert.ok(q.results.some((r: any) => r.enforcement_id === 'act-10084'));
  const one = await get(app, '/v1/enforcement/act-10084');
  assert.equal(one.houjin_bangou, '6010401117444');
  assert.ok(Array.isArray(one.related_laws) || one.related_laws === null);
  await get(app, '/v1/enforcement/search?decided_from=2025-02-29', 400);
  await get(app, '/v1/enforcement/nope', 404);
});

test('laws: search filters, detail by LAW id and slug with article count, articles list and lookup forms, e-Gov attribution', async (t) => {
  const app = await build(t, ENV);
  const egov = (page: any) => {
    assert.equal(page.attribution.source, 'デジタル庁 e-Gov 法令データ提供システム');
    assert.match(page.attribution.license, /CC BY 4\.0/);
  };
  const s = await get(app, `/v1/laws/search?q=${encodeURIComponent('労働基準法')}&limit=3`);
  egov(s);
  assert.equal(s.results[0].law_id, 'LAW-3ed068631b');
  const active = await get(app, '/v1/laws/search?status=repealed&limit=100');
  assert.ok(active.total > 0 && active.results.every((r: any) => r.status === 'repealed'));
  const ministry = await get(app, '/v1/laws/search?ministry_code=mhlw&limit=100');
  assert.ok(ministry.total > 0 && ministry.results.every((r: any) => r.ministry_code === 'mhlw'));
  const cat = await get(app, `/v1/laws/search?category=${encodeURIComponent('税制')}&limit=100`);
  assert.ok(cat.total > 0 && cat.results.every((r: any) => r.category === '税制'));

  const bySlug = await get(app, '/v1/laws/hojokin-nado-ni');
  const byId = await get(app, '/v1/laws/LAW-1c1831a72e');
  assert.deepEqual(byId, bySlug);
  assert.equal(bySlug.article_count, 55);
  assert.equal(bySlug.article_text_available, true);
  egov(bySlug);
  const indexOnly = (await get(app, '/v1/laws/search?limit=1&offset=9000')).results[0];
  const noText = await get(app, `/v1/laws/${indexOnly.law_id ?? indexOnly.law_slug}`);
  assert.equal(noText.article_text_available, false);
  assert.equal(noText.article_count, 0);
  await get(app, `/v1/laws/${indexOnly.law_id ?? indexOnly.law_slug}/articles/1`, 404);
  await get(app, '/v1/laws/LAW-0000000000', 404);

  const list = await get(app, '/v1/laws/hojokin-nado-ni/articles?limit=100');
  egov(list);
  assert.equal(list.total, 55);
  assert.deepEqual(
    list.results.map((r: any) => r.seq),
    [...list.results.map((r: any) => r.seq)].sort((a: number, b: number) => a - b),
  );
  const supp = await get(app, '/v1/laws/hojokin-nado-ni/articles?supplementary=true&limit=100');
  assert.ok(supp.total > 0 && supp.results.every((r: any) => r.is_supplementary === true));
  await get(app, '/v1/laws/nope/articles', 404);

  const forms: [string, string][] = [
    ['21_2', '21_2'],
    ['21の2', '21_2'],
    ['第二十一条の二', '21_2'],
    ['第21条の2', '21_2'],
    ['21-2', '21_2'],
    ['1', '1'],
    ['第一条', '1'],
    ['附則第一条', '1_附2'],
    ['附則1', '1_附2'],
    ['附則第1条', '1_附2'],
    ['1_附3', '1_附3'],
  ];
  for (const [ref, key] of forms) {
    const art = await get(app, `/v1/laws/hojokin-nado-ni/articles/${encodeURIComponent(ref)}`);
    assert.equal(art.article_key, key, ref);
    assert.equal(art.law_title, '補助金等に係る予算の執行の適正化に関する法律');
    assert.ok(art.text.length > 0);
    egov(art);
  }
  for (const ref of ['999', '第九百九十九条', '附則第九十九条', 'abc', '%', '第条']) {
    await get(app, `/v1/laws/hojokin-nado-ni/articles/${encodeURIComponent(ref)}`, 404);
  }
});

test('case studies: prefecture, jsic_code (major letter or code), industry, houjin_bangou, pattern_tag, employees range', async (t) => {
  const app = await build(t, ENV);
  const pref = await get(app, `/v1/case_studies/search?prefecture=${encodeURIComponent('岡山県')}&limit=100`);
  assert.ok(pref.total > 0 && pref.results.every((r: any) => r.prefecture === '岡山県'));
  const major = await get(app, '/v1/case_studies/search?jsic_code=D&limit=100');
  assert.ok(major.total > 0 && major.results.every((r: any) => r.jsic_code.startsWith('D')));
  const exact = await get(app, '/v1/case_studies/search?jsic_code=D06&limit=100');
  assert.ok(exact.total > 0 && exact.total <= major.total && exact.results.every((r: any) => r.jsic_code === 'D06'));
  await get(app, '/v1/case_studies/search?jsic_code=*', 400);
  const ind = await get(app, `/v1/case_studies/search?industry=${encodeURIComponent('工事')}&limit=100`);
  assert.ok(ind.total > 0 && ind.results.every((r: any) => r.industry_name.includes('工事')));
  const hb = await get(app, '/v1/case_studies/search?houjin_bangou=3260001025496');
  assert.ok(hb.total >= 1 && hb.results.every((r: any) => r.houjin_bangou === '3260001025496'));
  const tag = await get(app, `/v1/case_studies/search?pattern_tag=${encodeURIComponent('DX/デジタル化')}&limit=100`);
  assert.ok(tag.total > 0 && tag.results.every((r: any) => r.pattern_tags.includes('DX/デジタル化')));
  const emp = await get(app, '/v1/case_studies/search?employees_min=10&employees_max=20&limit=100');
  assert.ok(emp.total > 0 && emp.results.every((r: any) => r.employees >= 10 && r.employees <= 20));
  await get(app, '/v1/case_studies/search?employees_min=20&employees_max=10', 400);
  await get(app, '/v1/case_studies/search?employees_min=-1', 400);
  const one = await get(app, '/v1/case_studies/mirasapo_case_118');
  assert.equal(one.company_name, '株式会社IKEMOTO');
  await get(app, '/v1/case_studies/mirasapo_case_0', 404);
});

test('certifications: q, prefecture, tier, detail', async (t) => {
  const app = await build(t, ENV);
  const all = await get(app, '/v1/certifications/search?limit=1');
  assert.equal(all.total, 166);
  const tierB = await get(app, '/v1/certifications/search?tier=B&limit=100');
  assert.ok(tierB.total > 0 && tierB.results.every((r: any) => r.tier === 'B'));
  const pref = await get(app, `/v1/certifications/search?prefecture=${encodeURIComponent('北海道')}&limit=100`);
  assert.ok(pref.results.every((r: any) => r.prefecture === '北海道'));
  const q = await get(app, `/v1/certifications/search?q=${encodeURIComponent('経営発達支援計画')}`);
  assert.ok(q.results.some((r: any) => r.unified_id === 'UNI-00f985541f'));
  const short = await get(app, `/v1/certifications/search?q=${encodeURIComponent('認定')}&limit=100`);
  assert.ok(short.total > 0 && short.results.every((r: any) => /認定/.test(r.name) || /認定/.test(r.provider ?? '') || /認定/.test(r.program_kind ?? '')));
  const one = await get(app, '/v1/certifications/UNI-00f985541f');
  assert.equal(one.unified_id, 'UNI-00f985541f');
  await get(app, '/v1/certifications/UNI-none', 404);
});

const HOSTILE_Q = [
  '"',
  "' OR 1=1 --",
  'AND',
  'a AND b',
  'NEAR(',
  'NEAR(a b, 2)',
  '*',
  'abc*',
  '%',
  '_',
  '%%%',
  '\\',
  '😀',
  '😀😀😀',
  '\u0000',
  'a\u0000bc',
  '(',
  'title:abc',
  '^abc',
];

test('hostile q, numbers and dates answer 4xx or a normal result on every search, never 500', async (t) => {
  const app = await build(t, ENV);
  for (const path of SEARCHES) {
    for (const q of HOSTILE_Q) {
      const res = await app.inject(`${path}?q=${encodeURIComponent(q)}`);
      assert.equal(res.statusCode, 200, `${path} q=${JSON.stringify(q)}: ${res.body.slice(0, 200)}`);
      assert.doesNotMatch(res.body, /SQLITE|syntax error|fts5/i);
    }
    const long = await app.inject(`${path}?q=${'a'.repeat(5000)}`);
    assert.equal(long.statusCode, 400, `${path}: 5,000-character q`);
    for (const bad of ['limit=1e400', 'offset=99999999999', 'limit=NaN', 'offset=1.5']) {
      const res = await app.inject(`${path}?${bad}`);
      assert.equal(res.statusCode, 400, `${path}?${bad}`);
    }
  }
  for (const url of [
    '/v1/enforcement/search?decided_from=0000-00-00',
    '/v1/enforcement/search?decided_to=2025-02-30T00:00',
    '/v1/tax_rulesets/search?effective_on=%00',
    '/v1/case_studies/search?employees_max=1e99',
    '/v1/bids/search?min_amount_yen=-5',
    '/v1/bids/search?deadline_after=2025-99-99',
    `/v1/laws/${encodeURIComponent("' OR 1=1 --")}`,
    `/v1/laws/hojokin-nado-ni/articles/${encodeURIComponent('1" OR "1"="1')}`,
    `/v1/loans/${encodeURIComponent('😀')}`,
    '/v1/enforcement/%00',
  ]) {
    const res = await app.inject(url);
    assert.ok(res.statusCode === 400 || res.statusCode === 404, `${url} -> ${res.statusCode}`);
    assert.equal(typeof body(res).detail, 'string');
  }
  // A literal % is a substring, not a wildcard: no law title contains "%".
  assert.equal(body<Page>(await app.inject('/v1/laws/search?q=%25')).total, 0);
  assert.equal(body<Page>(await app.inject('/v1/laws/search?q=_')).total, 0);
});
