// The published document and the real answers cannot drift apart: for every
// documented operation that answers 2xx, real calls (several where the shape
// varies) are validated against that operation's response schema taken from
// the OpenAPI document itself. Most catalogue routes serialise with plain
// JSON.stringify (src/http/serialization.ts), so their schemas document the answer
// without shaping it: this test is what keeps the documentation true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { build, body, testCatalogWithBids } from '../helper.ts';
import { startFakeStripe } from '../fakes/stripe-server.ts';
import { paidCheckout, fromCheckout } from '../billing/helpers.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { approveDevice } from '../../src/access/device.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** JSON Pointer segment escaping (RFC 6901). */
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The document with every object schema that lists its properties but says
 * nothing of others closed (`additionalProperties: false`): an answer may
 * carry neither less nor more than its documentation says. Objects that
 * declare `additionalProperties` (maps, open records) are left as they are.
 */
function closed(doc: object): object {
  return JSON.parse(JSON.stringify(doc), (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value) && value.type === 'object' && value.properties && !('additionalProperties' in value)
      ? { ...value, additionalProperties: false }
      : value,
  );
}

test('every documented 2xx answer matches its response schema in the OpenAPI document', async (t) => {
  const fake = await startFakeStripe(t);
  const app = await build(
    t,
    fake.env({
      STRIPE_METER_FLUSH_SECONDS: '0',
      STRIPE_MAX_NETWORK_RETRIES: '0',
      ANON_DAILY_LIMIT: '100000',
      FREE_DAILY_LIMIT: '100000',
      // Subscriber mail is queued, not sent (no worker timer); webhook targets on this machine.
      SMTP_URL: 'smtp://127.0.0.1:9',
      OUTBOUND_INTERVAL_SECONDS: '0',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    }),
    {},
    { catalog: await testCatalogWithBids() },
  );
  const doc = body(await app.inject('/v1/openapi.json'));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(closed(doc), 'openapi.json');

  // Operation id -> (method, path, 2xx statuses) from the document.
  const operations = new Map<string, { method: string; path: string; statuses: string[] }>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const statuses = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s) && op.responses[s].content?.['application/json']);
      if (statuses.length) operations.set(op.operationId, { method, path, statuses });
    }
  }

  // What the calls need: keys, a paid customer, an advisor bound to a key, an approved device code.
  const issue = async (tier: 'free' | 'paid', customerId: string | null = null) => {
    const k = generateApiKey();
    await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier, customerId });
    return { 'x-api-key': k.key };
  };
  const free = await issue('free');
  const { sessionId, customer } = await paidCheckout(app, fake);
  fake.addInvoice(customer.id, { created: 1_750_000_000, amount_due: 1500, amount_paid: 1500 });
  const issued = await fromCheckout(app, sessionId);
  assert.equal(issued.statusCode, 200, issued.body);
  const paid = { 'x-api-key': body(issued).api_key as string };
  const owner = generateApiKey();
  await app.state.keys.create({ keyHash: owner.hash, prefix: owner.prefix, tier: 'free', customerId: null });
  const advisor = await app.state.advisors.create({
    firmName: '山田税理士法人',
    firmType: '税理士法人',
    specialties: ['補助金申請'],
    prefecture: '東京都',
    fields: { city: '千代田区' },
    ownerKeyHash: owner.hash,
    stripeAccountId: null,
    disabledReason: null,
    verifiedAt: new Date().toISOString(),
  });

  const calls: Record<string, (() => Promise<LightMyRequestResponse>)[]> = {};
  const get = (op: string, ...urls: string[]) => {
    (calls[op] ??= []).push(...urls.map((url) => () => app.inject({ url, headers: free })));
  };
  const post = (op: string, url: string, payload: object, headers: Record<string, string> = free) => {
    (calls[op] ??= []).push(() => app.inject({ method: 'POST', url, payload, headers }));
  };
  /** The first row's id: the first of `keys` that it has (a JFC loan has a loan_id, no unified_id). */
  const first = async (url: string, ...keys: string[]) => {
    const row = body(await app.inject({ url, headers: free })).results[0];
    return String(keys.map((k) => row[k]).find((v) => v !== null && v !== undefined));
  };
  const q = encodeURIComponent;

  get('getMeta', '/meta');
  get('getMetaV1', '/v1/meta');
  get('healthz', '/healthz');
  get('readyz', '/readyz');
  get('ping', '/v1/ping');
  (calls.ping ??= []).push(
    () => app.inject('/v1/ping'),
    () => app.inject({ url: '/v1/ping', headers: paid }),
  );
  get('getAttribution', '/v1/attribution');

  const program = await first('/v1/programs/search?q=補助金&limit=1', 'unified_id');
  get(
    'searchPrograms',
    '/v1/programs/search?q=補助金',
    '/v1/programs/search?fields=minimal',
    '/v1/programs/search?fields=full&limit=5',
    '/v1/programs/search?q=zzzznothing',
  );
  get('getProgram', `/v1/programs/${program}`, `/v1/programs/${program}?fields=minimal`, `/v1/programs/${program}?fields=full`);
  post('batchGetPrograms', '/v1/programs/batch', { unified_ids: [program, 'UNI-doesnotexist'] });
  post('matchPrograms', '/v1/programs/match', {
    prefecture: '大阪府',
    municipality: '大阪市',
    industry: 'E',
    employees: 30,
    need: '古い機械を入れ替えたい',
    explain: true,
  });
  post('matchPrograms', '/v1/programs/match', {});
  const rules = body(await app.inject({ url: '/v1/exclusions/rules', headers: free }));
  get('listExclusionRules', '/v1/exclusions/rules');
  const mutex = rules.find((r: any) => r.kind === 'mutex' && r.program_a && r.program_b) ?? rules[0];
  post('checkExclusions', '/v1/exclusions/check', { program_ids: [mutex.program_a, mutex.program_b].filter(Boolean) });

  get('amActiveAt', '/v1/am/active_at?date=2026-05-01&limit=5', '/v1/am/active_at?date=2026-05-01&kinds=loan,spaceship');
  get('amOpenPrograms', '/v1/am/open_programs?pivot_date=2026-05-01&limit=5', `/v1/am/open_programs?pivot_date=2020-01-01&prefecture=Atlantis`);
  get('amAnnotations', '/v1/am/annotations/UNI-000780f85e', '/v1/am/annotations/UNI-doesnotexist', '/v1/am/annotations/UNI-000780f85e?kind=gossip');
  get('amByLaw', `/v1/am/by_law?law_name=${q('補助金適正化法')}&limit=5`, `/v1/am/by_law?law_name=${q('存在しない架空法')}`);
  get('amProvenance', '/v1/am/provenance/UNI-000780f85e', '/v1/am/provenance/LAW-1c1831a72e?fact=title');
  get('amProvenanceForFact', '/v1/am/provenance/UNI-000780f85e/municipality', '/v1/am/provenance/UNI-000780f85e/nope');
  get('amLoans', '/v1/am/loans', '/v1/am/loans?no_collateral=true&limit=2');
  get('amMutualPlans', '/v1/am/mutual_plans', '/v1/am/mutual_plans?plan_kind=lottery');
  get('amTaxRule', '/v1/am/tax_rule?measure_name_or_id=TAX-e1854fe12c', '/v1/am/tax_rule?measure_name_or_id=x&rule_type=bribe');
  get('amGxPrograms', '/v1/am/gx_programs?theme=ev&limit=5', '/v1/am/gx_programs?theme=coal');
  get('amEnforcement', '/v1/am/enforcement?houjin_bangou=3040001101014&as_of_date=2027-01-01', '/v1/am/enforcement?houjin_bangou=3260001025496');
  get('amEnumValues', '/v1/am/enums/tier', '/v1/am/enums/nonsense');
  get('amIntent', `/v1/am/intent?query=${q('インボイスの特例はいつまで')}`, '/v1/am/intent?query=%20');
  get(
    'amLawArticle',
    '/v1/am/law_article?law_name_or_canonical_id=LAW-1c1831a72e&article_number=17',
    '/v1/am/law_article?law_name_or_canonical_id=LAW-1c1831a72e&article_number=9999',
  );
  get('amReason', `/v1/am/reason?query=${q('東京都の製造業で500万円以上の設備投資補助金')}`, '/v1/am/reason?query=x&persona=wizard');
  get('amRelated', '/v1/am/related/UNI-194743d166?depth=2', '/v1/am/related/UNI-nothing');
  post('amValidate', '/v1/am/validate', {
    applicant_data: {
      company_name: '株式会社IKEMOTO',
      houjin_bangou: '3260001025496',
      prefecture: '岡山',
      employee_count: 13,
      founded_date: '2011-04-01',
      industry_jsic: 'D06',
    },
  });
  post('amValidate', '/v1/am/validate', { applicant_data: { prefecture: 'Atlantis', employee_count: -3 }, entity_id: 'TAX-e1854fe12c', scope: 'entity' });

  // Record sets: [path, search operation, get operation, id field of a row].
  const recordSets = [
    ['loans', 'searchLoans', 'getLoan', 'unified_id', 'loan_id'],
    ['tax_rulesets', 'searchTaxRulesets', 'getTaxRuleset', 'unified_id'],
    ['enforcement', 'searchEnforcement', 'getEnforcement', 'enforcement_id'],
    ['laws', 'searchLaws', 'getLaw', 'law_id'],
    ['case_studies', 'searchCaseStudies', 'getCaseStudy', 'case_id'],
    ['certifications', 'searchCertifications', 'getCertification', 'unified_id'],
  ] as const;
  for (const [set, searchOp, getOp, ...idFields] of recordSets) {
    get(searchOp, `/v1/${set}/search`, `/v1/${set}/search?q=zzzznothing`);
    get(
      getOp,
      `/v1/${set}/${q(await first(`/v1/${set}/search?limit=1`, ...idFields))}`,
      `/v1/${set}/${q(await first(`/v1/${set}/search?limit=1&offset=7`, ...idFields))}`,
    );
  }
  const articles = body(await app.inject({ url: '/v1/laws/LAW-1c1831a72e/articles', headers: free }));
  get('listLawArticles', '/v1/laws/LAW-1c1831a72e/articles', '/v1/laws/LAW-1c1831a72e/articles?limit=1&offset=3');
  get('getLawArticle', `/v1/laws/LAW-1c1831a72e/articles/${q(articles.results[0].article_key)}`, '/v1/laws/LAW-1c1831a72e/articles/17');
  // The bundled dataset holds no revisions (an e-Gov sync keeps them): test/sources/egov-sync.test.ts checks a filled answer against the document.
  get('listLawRevisions', '/v1/laws/LAW-1c1831a72e/revisions');
  const bid = await first('/v1/bids/search?limit=1', 'unified_id');
  get('searchBids', '/v1/bids/search', '/v1/bids/search?q=zzzznothing');
  get('getBid', `/v1/bids/${bid}`);

  get('listAdvisors', '/v1/advisors');
  post('advisorSignup', '/v1/advisors/signup', {
    firm_name: '大阪診断士事務所',
    firm_type: '中小企業診断士',
    prefecture: '大阪府',
    specialties: ['DX'],
    contact_email: 'info@example.jp',
  });
  const track = await app.inject({ method: 'POST', url: '/v1/advisors/track', payload: { advisor_id: advisor.id, source_program_id: program } });
  (calls.trackAdvisorReferral ??= []).push(async () => track);
  post('reportAdvisorConversion', '/v1/advisors/report-conversion', { token: body(track).token, conversion_value_yen: 1_000_000 }, { 'x-api-key': owner.key });
  (calls.getAdvisorDashboard ??= []).push(() => app.inject({ url: `/v1/advisors/${advisor.id}/dashboard`, headers: { 'x-api-key': owner.key } }));

  for (const headers of [free, paid]) {
    (calls.getMe ??= []).push(() => app.inject({ url: '/v1/me', headers }));
    (calls.getDashboard ??= []).push(() => app.inject({ url: '/v1/me/dashboard', headers }));
    (calls.getBillingHistory ??= []).push(() => app.inject({ url: '/v1/me/billing_history', headers }));
  }
  post('setCap', '/v1/me/cap', { monthly_cap_yen: 5000 }, paid);
  post('setCap', '/v1/me/cap', { monthly_cap_yen: null }, paid);
  // The portal's session: log in, then the account calls and logout with its cookie.
  post('createSession', '/v1/session', { api_key: paid['x-api-key'] }, {});
  const sessionCookie = async () =>
    String((await app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: paid['x-api-key'] } })).headers['set-cookie']).split(';')[0];
  (calls.getDashboard ??= []).push(async () => app.inject({ url: '/v1/me/dashboard', headers: { cookie: await sessionCookie() } }));
  (calls.getSession ??= []).push(
    async () => app.inject({ url: '/v1/session', headers: { cookie: await sessionCookie() } }),
    () => app.inject({ url: '/v1/session', headers: paid }),
  );
  (calls.endSession ??= []).push(
    () => app.inject({ method: 'POST', url: '/v1/session/logout' }),
    async () => app.inject({ method: 'POST', url: '/v1/session/logout', headers: { cookie: await sessionCookie() } }),
  );
  post('sendFeedback', '/v1/feedback', { message: 'shapes', rating: 4 });

  // Staying informed: the feed (empty here), saved searches, webhooks, subscribers, calendars.
  get('listChanges', '/v1/changes', '/v1/changes?kind=program&limit=5');
  get('listDatasetVersions', '/v1/changes/versions');
  get('getProgramHistory', `/v1/programs/${program}/history`);
  const saved = body(
    await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers: free, payload: { name: '東京', query: { prefecture: '東京都' } } }),
  );
  post('createSavedSearch', '/v1/me/saved_searches', { name: '大阪', query: { prefecture: '大阪府', tier: ['S', 'A'] } });
  get('listSavedSearches', '/v1/me/saved_searches');
  get('getSavedSearch', `/v1/me/saved_searches/${saved.id}`);
  const hook = body(
    await app.inject({ method: 'POST', url: '/v1/me/webhooks', headers: free, payload: { url: 'http://127.0.0.1:9/hook', events: ['program.created'] } }),
  );
  post('createWebhook', '/v1/me/webhooks', { url: 'http://127.0.0.1:9/other', events: ['saved_search.matched'], description: 'shapes' });
  get('listWebhooks', '/v1/me/webhooks');
  post('testWebhook', `/v1/me/webhooks/${hook.id}/test`, {});
  get('listWebhookDeliveries', `/v1/me/webhooks/${hook.id}/deliveries`);
  post('subscribe', '/v1/subscribers', { email: 'shapes@example.jp', saved_search_id: saved.id });
  post('subscribe', '/v1/subscribers', { email: 'shapes2@example.jp', search: { name: '北海道', query: { prefecture: '北海道' } } }, {});
  get(
    'getDeadlineCalendar',
    '/v1/calendar/deadlines',
    `/v1/calendar/deadlines?include_past=true&prefecture=${q('東京都')}`,
    `/v1/calendar/deadlines?saved_search_id=${saved.id}`,
  );

  const device = body(await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: {} }));
  (calls.deviceAuthorize ??= []).push(() => app.inject({ method: 'POST', url: '/v1/device/authorize', payload: { client_id: 'shapes' } }));
  await approveDevice(app.state, app.config, device.user_code, 'free', null);
  post('deviceToken', '/v1/device/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code }, {});

  const own = app.config.publicBaseUrl;
  post('createCheckout', '/v1/billing/checkout', { success_url: `${own}/ok`, cancel_url: `${own}/no` }, {});
  post('createBillingPortal', '/v1/billing/portal', { customer_id: customer.id, return_url: `${own}/account` }, {});
  const second = await paidCheckout(app, fake);
  post('issueKeyFromCheckout', '/v1/billing/keys/from-checkout', { session_id: second.sessionId }, {});
  (calls.receiveBillingWebhook ??= []).push(() => {
    const { payload, header } = fake.signedEvent('invoice.payment_failed', { id: 'in_shapes', customer: customer.id });
    return app.inject({ method: 'POST', url: '/v1/billing/webhook', headers: { 'content-type': 'application/json', 'payment-signature': header }, payload });
  });

  assert.deepEqual([...operations.keys()].filter((op) => !calls[op]).sort(), [], 'every documented 2xx operation has a representative call here');
  assert.deepEqual(
    Object.keys(calls)
      .filter((op) => !operations.has(op))
      .sort(),
    [],
    'every call here names a documented operation',
  );

  const failures: string[] = [];
  let checked = 0;
  for (const [opId, list] of Object.entries(calls)) {
    const { method, path, statuses } = operations.get(opId)!;
    for (const call of list) {
      const res = await call();
      const status = String(res.statusCode);
      if (!statuses.includes(status)) {
        failures.push(`${opId}: answered ${status}, documented ${statuses.join('/')}: ${res.body.slice(0, 200)}`);
        continue;
      }
      const ref = `openapi.json#/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
      if (!validate(JSON.parse(res.body))) {
        failures.push(`${opId} (${status}): ${ajv.errorsText(validate.errors?.slice(0, 5), { dataVar: 'body' })}`);
      }
      checked++;
    }
  }
  assert.deepEqual(failures, [], 'answers that do not match their documented schema');
  t.diagnostic(`${checked} answers of ${operations.size} operations checked`);
});
