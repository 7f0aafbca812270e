// What goes on the wire: URL, query, headers, body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JpSupportClient, path } from '../src/index.ts';
import { json, scriptedServer } from './helpers.ts';

test('headers: X-API-Key by default, Bearer on request, defaults, request id, JSON body', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 200, { ok: true }));
  const keyed = new JpSupportClient({ baseUrl: `${srv.baseUrl}/`, apiKey: 'am_key1', defaultHeaders: { 'X-Trace': 'on' } });
  await keyed.ping({ requestId: 'abc-123' });
  const [first] = srv.requests;
  assert.equal(first.url, '/v1/ping');
  assert.equal(first.headers['x-api-key'], 'am_key1');
  assert.equal(first.headers.authorization, undefined);
  assert.equal(first.headers['x-request-id'], 'abc-123');
  assert.equal(first.headers['x-trace'], 'on');
  assert.equal(first.headers.accept, 'application/json');
  assert.equal(first.headers['content-type'], undefined);

  const bearer = new JpSupportClient({ baseUrl: srv.baseUrl, apiKey: 'am_key2', authScheme: 'bearer' });
  await bearer.me.setCap(500, { headers: { 'X-Extra': '1' } });
  const second = srv.requests[1];
  assert.equal(second.method, 'POST');
  assert.equal(second.url, '/v1/me/cap');
  assert.equal(second.headers.authorization, 'Bearer am_key2');
  assert.equal(second.headers['x-api-key'], undefined);
  assert.equal(second.headers['content-type'], 'application/json');
  assert.equal(second.headers['x-extra'], '1');
  assert.deepEqual(JSON.parse(second.body), { monthly_cap_yen: 500 });

  await new JpSupportClient({ baseUrl: srv.baseUrl }).ping();
  assert.equal(srv.requests[2].headers['x-api-key'], undefined);
  assert.equal(srv.requests[2].headers.authorization, undefined);
});

test('query: repeated keys for arrays, null/undefined left out, booleans and numbers as text; ids encoded', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 200, {}));
  const client = new JpSupportClient({ baseUrl: srv.baseUrl });
  await client.programs.search({
    q: '省エネ 設備',
    tier: ['S', 'A'],
    funding_purpose: '設備投資',
    include_excluded: true,
    amount_min: 10.5,
    prefecture: undefined,
  });
  const url = new URL(srv.requests[0].url, srv.baseUrl);
  assert.equal(url.pathname, '/v1/programs/search');
  assert.deepEqual(url.searchParams.getAll('tier'), ['S', 'A']);
  assert.deepEqual(url.searchParams.getAll('funding_purpose'), ['設備投資']);
  assert.equal(url.searchParams.get('q'), '省エネ 設備');
  assert.equal(url.searchParams.get('include_excluded'), 'true');
  assert.equal(url.searchParams.get('amount_min'), '10.5');
  assert.equal(url.searchParams.has('prefecture'), false);

  await client.laws.article('LAW-0123/ab?c', '第1条');
  assert.equal(srv.requests[1].url, `/v1/laws/${encodeURIComponent('LAW-0123/ab?c')}/articles/${encodeURIComponent('第1条')}`);
  await client.am.related('UNI-x', { relation_types: ['prerequisite', 'similar'], depth: 2 });
  assert.equal(srv.requests[2].url, '/v1/am/related/UNI-x?relation_types=prerequisite&relation_types=similar&depth=2');
  assert.equal(path`/a/${'x y'}/b/${3}`, '/a/x%20y/b/3');
  await client.device.token({ device_code: 'dc-1' });
  assert.deepEqual(JSON.parse(srv.requests[3].body), { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'dc-1' });
});

test('the resource methods hit the documented paths', async (t) => {
  const srv = await scriptedServer(t, (_req, res) => json(res, 200, {}));
  const c = new JpSupportClient({ baseUrl: srv.baseUrl, maxRetries: 0 });
  const calls: [() => Promise<unknown>, string, string][] = [
    [() => c.meta(), 'GET', '/meta'],
    [() => c.attribution(), 'GET', '/v1/attribution'],
    [() => c.openapi(), 'GET', '/v1/openapi.json'],
    [() => c.billing.portal({ customer_id: 'cus_1' }), 'POST', '/v1/billing/portal'],
    [() => c.billing.keysFromCheckout({ session_id: 'cs_1' }), 'POST', '/v1/billing/keys/from-checkout'],
    [() => c.billing.history(), 'GET', '/v1/me/billing_history'],
    [() => c.me.get(), 'GET', '/v1/me'],
    [() => c.me.dashboard(), 'GET', '/v1/me/dashboard'],
    [() => c.device.authorize(), 'POST', '/v1/device/authorize'],
    [() => c.device.token({ device_code: 'd' }), 'POST', '/v1/device/token'],
    [() => c.loans.get(12), 'GET', '/v1/loans/12'],
    [() => c.taxRulesets.search({ effective_on: '2025-04-01' }), 'GET', '/v1/tax_rulesets/search?effective_on=2025-04-01'],
    [() => c.taxRulesets.get('TAX-1'), 'GET', '/v1/tax_rulesets/TAX-1'],
    [() => c.enforcement.search({ q: 'x' }), 'GET', '/v1/enforcement/search?q=x'],
    [() => c.enforcement.get('E1'), 'GET', '/v1/enforcement/E1'],
    [() => c.laws.search(), 'GET', '/v1/laws/search'],
    [() => c.laws.articles('L1', { limit: 2 }), 'GET', '/v1/laws/L1/articles?limit=2'],
    [() => c.caseStudies.search(), 'GET', '/v1/case_studies/search'],
    [() => c.caseStudies.get('C1'), 'GET', '/v1/case_studies/C1'],
    [() => c.certifications.search(), 'GET', '/v1/certifications/search'],
    [() => c.certifications.get('CE1'), 'GET', '/v1/certifications/CE1'],
    [() => c.bids.search({ bid_kind: 'open' }), 'GET', '/v1/bids/search?bid_kind=open'],
    [() => c.bids.get('BID-0123456789'), 'GET', '/v1/bids/BID-0123456789'],
    [() => c.advisors.list({ prefecture: '東京都' }), 'GET', `/v1/advisors?prefecture=${encodeURIComponent('東京都')}`],
    [() => c.advisors.track({ advisor_id: 1 }), 'POST', '/v1/advisors/track'],
    [() => c.advisors.reportConversion({ token: 'a'.repeat(32), conversion_value_yen: 1000 }), 'POST', '/v1/advisors/report-conversion'],
    [() => c.advisors.dashboard(3), 'GET', '/v1/advisors/3/dashboard'],
    [() => c.am.activeAt({ date: '2025-04-01' }), 'GET', '/v1/am/active_at?date=2025-04-01'],
    [() => c.am.openPrograms(), 'GET', '/v1/am/open_programs'],
    [() => c.am.annotations('E-1'), 'GET', '/v1/am/annotations/E-1'],
    [() => c.am.byLaw({ law_name: '法' }), 'GET', `/v1/am/by_law?law_name=${encodeURIComponent('法')}`],
    [() => c.am.provenance('E-2'), 'GET', '/v1/am/provenance/E-2'],
    [() => c.am.provenanceForFact('E-2', 'amount'), 'GET', '/v1/am/provenance/E-2/amount'],
    [() => c.feedback({ message: 'm' }), 'POST', '/v1/feedback'],
    [() => c.billing.checkout({ success_url: 'https://a.example/s', cancel_url: 'https://a.example/c' }), 'POST', '/v1/billing/checkout'],
    [() => c.me.setCap(null), 'POST', '/v1/me/cap'],
    [
      () => c.advisors.signup({ firm_name: 'F', firm_type: '行政書士', specialties: ['subsidy'], prefecture: '東京都', contact_email: 'a@b.jp' }),
      'POST',
      '/v1/advisors/signup',
    ],
    [() => c.programs.search(), 'GET', '/v1/programs/search'],
    [() => c.programs.get('P-1', { fields: 'minimal' }), 'GET', '/v1/programs/P-1?fields=minimal'],
    [() => c.programs.batch({ unified_ids: ['P-1'] }), 'POST', '/v1/programs/batch'],
    [() => c.programs.match({ prefecture: '大阪府', industry: 'E' }), 'POST', '/v1/programs/match'],
    [() => c.exclusions.rules(), 'GET', '/v1/exclusions/rules'],
    [() => c.exclusions.check({ program_ids: ['P-1'] }), 'POST', '/v1/exclusions/check'],
    [() => c.loans.search(), 'GET', '/v1/loans/search'],
    [() => c.laws.get('L1'), 'GET', '/v1/laws/L1'],
    [() => c.laws.article('L1', 3), 'GET', '/v1/laws/L1/articles/3'],
    [() => c.laws.articleAsOf('L1', 3, '2020-04-01'), 'GET', '/v1/laws/L1/articles/3?effective_on=2020-04-01'],
    [() => c.laws.revisions('L1'), 'GET', '/v1/laws/L1/revisions'],
    [() => c.am.related('P-1'), 'GET', '/v1/am/related/P-1'],
    [() => c.am.validate({ applicant_data: {} }), 'POST', '/v1/am/validate'],
    [() => c.am.loans({ no_collateral: true }), 'GET', '/v1/am/loans?no_collateral=true'],
    [() => c.am.mutualPlans(), 'GET', '/v1/am/mutual_plans'],
    [() => c.am.taxRule({ measure_name_or_id: 'x' }), 'GET', '/v1/am/tax_rule?measure_name_or_id=x'],
    [() => c.am.gxPrograms({ theme: 'ev' }), 'GET', '/v1/am/gx_programs?theme=ev'],
    [() => c.am.enforcement({ houjin_bangou: '1234567890123' }), 'GET', '/v1/am/enforcement?houjin_bangou=1234567890123'],
    [() => c.am.enums('tier'), 'GET', '/v1/am/enums/tier'],
    [() => c.am.intent({ query: 'q' }), 'GET', '/v1/am/intent?query=q'],
    [() => c.am.lawArticle({ law_name_or_canonical_id: 'L', article_number: '1' }), 'GET', '/v1/am/law_article?law_name_or_canonical_id=L&article_number=1'],
    [() => c.am.reason({ query: 'q' }), 'GET', '/v1/am/reason?query=q'],
  ];
  for (const [call] of calls) await call();
  assert.deepEqual(
    srv.requests.map((r) => `${r.method} ${r.url}`),
    calls.map(([, m, p]) => `${m} ${p}`),
  );
});
