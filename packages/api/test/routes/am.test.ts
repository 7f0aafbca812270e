import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

const ENVELOPE_KEYS = ['total', 'limit', 'offset', 'results', 'meta', 'error', 'retrieval_note'];
const hasKeys = (o: Record<string, unknown>, keys: string[]) => {
  for (const k of keys) assert.ok(k in o, `missing key ${k}`);
};
const get = async (app: Awaited<ReturnType<typeof build>>, url: string) => {
  const res = await app.inject(url);
  return { status: res.statusCode, json: res.statusCode === 200 || res.statusCode >= 400 ? body(res) : {} };
};

test('active_at: envelope, pivot_date, validity covers the date, kinds filter, invalid kinds -> 200 invalid_enum', async (t) => {
  const app = await build(t);
  const { status, json } = await get(app, '/v1/am/active_at?date=2026-05-01&limit=5');
  assert.equal(status, 200);
  hasKeys(json, [...ENVELOPE_KEYS, 'pivot_date']);
  assert.equal(json.pivot_date, '2026-05-01');
  assert.equal(json.limit, 5);
  assert.equal(json.offset, 0);
  assert.ok(json.total > 0 && json.results.length <= 5);
  for (const r of json.results) {
    assert.ok(r.valid_from === null || r.valid_from <= '2026-05-01');
    assert.ok(r.valid_until === null || r.valid_until >= '2026-05-01');
  }
  const tax = (await get(app, '/v1/am/active_at?date=2024-01-01&kinds=tax_measure&limit=100')).json;
  assert.ok(tax.total > 0);
  assert.ok(tax.results.every((r: any) => r.record_kind === 'tax_measure'));
  const bad = (await get(app, '/v1/am/active_at?date=2026-05-01&kinds=loan,spaceship')).json;
  assert.equal(bad.error.code, 'invalid_enum');
  assert.deepEqual(bad.results, []);
  const badDate = await get(app, '/v1/am/active_at?date=2026-02-30');
  assert.equal(badDate.status, 200);
  assert.equal(badDate.json.error.code, 'invalid_date');
  assert.equal(badDate.json.pivot_date, null);
  // Default date: today.
  assert.match((await get(app, '/v1/am/active_at')).json.pivot_date, /^\d{4}-\d{2}-\d{2}$/);
});

test('open_programs: default pivot today, window open on the day, days_remaining, paging', async (t) => {
  const app = await build(t);
  const d = (await get(app, '/v1/am/open_programs')).json;
  hasKeys(d, [...ENVELOPE_KEYS, 'pivot_date']);
  assert.match(d.pivot_date, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(d.limit, 20);
  const all = (await get(app, '/v1/am/open_programs?pivot_date=2026-05-01&limit=100')).json;
  assert.ok(all.total >= 2);
  for (const r of all.results) {
    assert.ok(r.valid_until >= '2026-05-01');
    assert.equal(r.days_remaining, Math.round((Date.parse(r.valid_until) - Date.parse('2026-05-01')) / 86400000));
  }
  const days = all.results.map((r: any) => r.days_remaining);
  assert.deepEqual(
    days,
    [...days].sort((a: number, b: number) => a - b),
  );
  const p2 = (await get(app, '/v1/am/open_programs?pivot_date=2026-05-01&limit=1&offset=1')).json;
  assert.equal(p2.results[0].entity_id, all.results[1].entity_id);
  assert.equal(p2.total, all.total);
  const tokyo = (await get(app, '/v1/am/open_programs?pivot_date=2026-05-01&prefecture=東京&limit=100')).json;
  assert.ok(tokyo.results.every((r: any) => r.prefecture === null || r.prefecture === '東京都'));
  assert.equal((await get(app, '/v1/am/open_programs?pivot_date=2020-01-01&prefecture=Atlantis')).json.error.code, 'invalid_enum');
});

test('annotations: derived notes with filters; unknown entity -> 200 seed_not_found', async (t) => {
  const app = await build(t);
  const a = (await get(app, '/v1/am/annotations/UNI-000780f85e')).json;
  hasKeys(a, [...ENVELOPE_KEYS, 'entity_id', 'filters']);
  assert.equal(a.entity_id, 'UNI-000780f85e');
  assert.ok(a.results.some((r: any) => r.annotation_id.endsWith(':tier')));
  const cov = (await get(app, '/v1/am/annotations/UNI-000780f85e?kind=coverage')).json;
  assert.ok(cov.results.length > 0 && cov.results.every((r: any) => r.kind === 'coverage'));
  assert.deepEqual(cov.filters, { kind: 'coverage', severity: null });
  // A loser of a duplicate merge carries the duplicate-group note.
  const dup = (await get(app, '/v1/am/annotations/UNI-ext-f560a9153f?kind=duplicate')).json;
  assert.equal(dup.results[0].severity, 'warning');
  assert.equal(dup.results[0].evidence.winner_uid, 'UNI-ext-0253a00c5d');
  const missing = await get(app, '/v1/am/annotations/UNI-doesnotexist');
  assert.equal(missing.status, 200);
  assert.equal(missing.json.error.code, 'seed_not_found');
  assert.deepEqual(missing.json.results, []);
  assert.equal((await get(app, '/v1/am/annotations/UNI-000780f85e?kind=gossip')).json.error.code, 'invalid_enum');
});

test('by_law: short names resolve with the aliases tried; unknown law is an error in the body', async (t) => {
  const app = await build(t);
  const r = (await get(app, `/v1/am/by_law?law_name=${encodeURIComponent('補助金適正化法')}&limit=5`)).json;
  hasKeys(r, [...ENVELOPE_KEYS, 'law_aliases_tried']);
  assert.ok(r.law_aliases_tried.includes('補助金等に係る予算の執行の適正化に関する法律'));
  assert.ok(r.law_aliases_tried.includes('hojokin-nado-ni'));
  assert.ok(r.total > 5 && r.results.length === 5);
  assert.ok(r.results.every((x: any) => x.law_id === 'LAW-1c1831a72e'));
  const enf = (await get(app, '/v1/am/by_law?law_name=LAW-1c1831a72e&kinds=enforcement&limit=3')).json;
  assert.ok(enf.total > 0 && enf.results.every((x: any) => x.record_kind === 'enforcement'));
  const tax = (await get(app, `/v1/am/by_law?law_name=${encodeURIComponent('消費税法')}&kinds=tax_measure&article=30`)).json;
  assert.ok(tax.total > 0);
  assert.ok(tax.results.every((x: any) => x.article_match === 'article'));
  const none = (await get(app, `/v1/am/by_law?law_name=${encodeURIComponent('存在しない架空法')}`)).json;
  assert.equal(none.error.code, 'no_matching_records');
  assert.deepEqual(none.results, []);
  assert.ok(none.law_aliases_tried.length >= 1);
});

test('provenance: per field source keys, per-fact path and ?fact=, unknown fact -> invalid_field', async (t) => {
  const app = await build(t);
  const p = (await get(app, '/v1/am/provenance/UNI-000780f85e')).json;
  hasKeys(p, ENVELOPE_KEYS);
  const pref = p.results.find((r: any) => r.field === 'prefecture');
  assert.equal(pref.source_key, 'rss_pref');
  assert.equal(pref.value, '福島県');
  const one = (await get(app, '/v1/am/provenance/UNI-000780f85e/municipality')).json;
  assert.equal(one.total, 1);
  assert.equal(one.results[0].source_key, 'pref_overrides');
  assert.deepEqual((await get(app, '/v1/am/provenance/UNI-000780f85e?fact=municipality')).json.results, one.results);
  assert.equal((await get(app, '/v1/am/provenance/UNI-000780f85e/nope')).json.error.code, 'invalid_field');
  const law = (await get(app, '/v1/am/provenance/LAW-1c1831a72e?fact=title')).json;
  assert.equal(law.results[0].source_key, 'site/laws/hojokin-nado-ni.md');
});

test('loans and mutual_plans: shape, defaults, boolean switches, paging', async (t) => {
  const app = await build(t);
  const l = (await get(app, '/v1/am/loans')).json;
  hasKeys(l, ['results', 'total', 'limit', 'offset', 'result_count', 'error']);
  assert.equal(l.limit, 10);
  assert.equal(l.offset, 0);
  assert.equal(l.result_count, l.results.length);
  assert.ok(l.total > 400);
  const third = (await get(app, '/v1/am/loans?no_third_party_guarantor=true')).json;
  assert.ok(third.total >= 1 && third.results.every((r: any) => r.third_party_guarantor_required === 'not_required'));
  assert.equal((await get(app, '/v1/am/loans?no_collateral=true')).json.total, 0);
  const p2 = (await get(app, '/v1/am/loans?limit=2&offset=2')).json;
  assert.equal(p2.results.length, 2);
  assert.notEqual(p2.results[0].id, l.results[0].id);
  const jfc = (await get(app, `/v1/am/loans?provider=${encodeURIComponent('日本政策金融公庫')}&min_amount_yen=50000000`)).json;
  assert.ok(jfc.results.every((r: any) => r.amount_max_yen >= 50000000));
  const m = (await get(app, '/v1/am/mutual_plans?plan_kind=bankruptcy_mutual')).json;
  assert.ok(m.total >= 2 && m.results.every((r: any) => r.plan_kind === 'bankruptcy_mutual'));
  assert.equal((await get(app, '/v1/am/mutual_plans?plan_kind=lottery')).json.error.code, 'invalid_enum');
});

test('tax_rule: by id and by words, rule_type and as_of filters, total/results/error shape', async (t) => {
  const app = await build(t);
  const byId = (await get(app, '/v1/am/tax_rule?measure_name_or_id=TAX-e1854fe12c')).json;
  hasKeys(byId, ['results', 'total', 'error']);
  assert.equal(byId.total, 1);
  assert.equal(byId.results[0].effective_until, '2026-09-30');
  const words = (await get(app, `/v1/am/tax_rule?measure_name_or_id=${encodeURIComponent('インボイス')}`)).json;
  assert.ok(words.total >= 8);
  const at = (await get(app, `/v1/am/tax_rule?measure_name_or_id=${encodeURIComponent('80%')}&as_of=2024-01-01`)).json;
  assert.ok(at.results.every((r: any) => r.effective_from <= '2024-01-01' && (r.effective_until === null || r.effective_until >= '2024-01-01')));
  assert.ok(at.results.some((r: any) => r.unified_id === 'TAX-e1854fe12c'));
  const reg = (await get(app, `/v1/am/tax_rule?measure_name_or_id=${encodeURIComponent('インボイス')}&rule_type=registration`)).json;
  assert.ok(reg.total > 0 && reg.results.every((r: any) => r.ruleset_kind === 'registration'));
  assert.equal((await get(app, '/v1/am/tax_rule?measure_name_or_id=x&rule_type=bribe')).json.error.code, 'invalid_enum');
  assert.equal((await get(app, '/v1/am/tax_rule?measure_name_or_id=%20')).json.error.code, 'empty_input');
});

test('gx_programs: themes map to keyword sets; unknown theme -> invalid_enum; no offset', async (t) => {
  const app = await build(t);
  const ev = (await get(app, '/v1/am/gx_programs?theme=ev&limit=5')).json;
  hasKeys(ev, ['total', 'results', 'error']);
  assert.ok(!('offset' in ev));
  assert.ok(ev.total > 0 && ev.results.length <= 5);
  assert.ok(ev.results.every((r: any) => r.tier !== 'X'));
  const def = (await get(app, '/v1/am/gx_programs')).json;
  assert.equal(def.theme, 'ghg_reduction');
  assert.equal((await get(app, '/v1/am/gx_programs?theme=coal')).json.error.code, 'invalid_enum');
});

test('enforcement: exclusion period checked against as_of_date; by number or name; input errors in the body', async (t) => {
  const app = await build(t);
  const during = (await get(app, '/v1/am/enforcement?houjin_bangou=3040001101014&as_of_date=2027-01-01')).json;
  hasKeys(during, ['found', 'currently_excluded', 'active_exclusions', 'all_count', 'queried', 'recent_history', 'error']);
  assert.equal(during.found, true);
  assert.equal(during.currently_excluded, true);
  assert.equal(during.active_exclusions.length, 1);
  const after = (await get(app, '/v1/am/enforcement?houjin_bangou=3040001101014&as_of_date=2032-01-01')).json;
  assert.equal(after.found, true);
  assert.equal(after.currently_excluded, false);
  assert.equal(after.all_count, 1);
  const byName = (await get(app, `/v1/am/enforcement?target_name=${encodeURIComponent('夢現')}&as_of_date=2027-01-01`)).json;
  assert.equal(byName.currently_excluded, true);
  const clean = (await get(app, '/v1/am/enforcement?houjin_bangou=3260001025496')).json;
  assert.equal(clean.found, false);
  assert.equal(clean.all_count, 0);
  assert.equal((await get(app, '/v1/am/enforcement')).json.error.code, 'empty_input');
  assert.equal((await get(app, '/v1/am/enforcement?houjin_bangou=12ab')).json.error.code, 'invalid_input');
  assert.equal((await get(app, '/v1/am/enforcement?houjin_bangou=3040001101014&as_of_date=yesterday')).json.error.code, 'invalid_date');
});

test('enums: aliases and dataset names; unknown enum -> 200 invalid_enum', async (t) => {
  const app = await build(t);
  const tier = (await get(app, '/v1/am/enums/tier')).json;
  hasKeys(tier, ['enum_name', 'description', 'values', 'frequency_map', 'last_updated', 'error']);
  assert.deepEqual([...tier.values].sort(), ['A', 'B', 'C', 'S', 'X']);
  assert.equal(tier.frequency_map.S, 114);
  const kinds = (await get(app, '/v1/am/enums/record_kind')).json;
  assert.equal(kinds.values.length, 12);
  assert.equal(kinds.frequency_map.adoption, 0);
  assert.ok(kinds.frequency_map.program > 10000);
  assert.ok((await get(app, '/v1/am/enums/program.tier')).json.values.length === 5);
  const bad = await get(app, '/v1/am/enums/nonsense');
  assert.equal(bad.status, 200);
  assert.equal(bad.json.error.code, 'invalid_enum');
  assert.deepEqual(bad.json.values, []);
});

test('intent: natural language -> intent with scores and samples', async (t) => {
  const app = await build(t);
  const r = (await get(app, `/v1/am/intent?query=${encodeURIComponent('インボイスの特例はいつまで')}`)).json;
  hasKeys(r, ['intent_id', 'intent_name_ja', 'confidence', 'all_scores', 'sample_queries', 'error']);
  assert.equal(r.intent_id, 'tax_measure');
  assert.equal(r.all_scores.length, 10);
  assert.equal((await get(app, '/v1/am/intent?query=%20')).json.error.code, 'empty_input');
  assert.equal((await get(app, '/v1/am/intent')).status, 400);
});

test('law_article: kanji and arabic numbers, short names; missing article and unshipped law are errors in the body', async (t) => {
  const app = await build(t);
  const a = (
    await get(app, `/v1/am/law_article?law_name_or_canonical_id=${encodeURIComponent('補助金適正化法')}&article_number=${encodeURIComponent('第十七条')}`)
  ).json;
  hasKeys(a, [
    'found',
    'article_id',
    'article_number',
    'article_number_sort',
    'effective_from',
    'effective_until',
    'last_amended',
    'law',
    'source_fetched_at',
    'source_url',
    'text_full',
    'text_summary',
    'title',
    'error',
  ]);
  assert.equal(a.found, true);
  assert.equal(a.article_number, '第十七条');
  assert.equal(a.title, '決定の取消');
  assert.match(a.text_full, /補助金等の交付の決定の全部又は一部を取り消す/);
  assert.equal(a.law.law_id, 'LAW-1c1831a72e');
  const b = (await get(app, '/v1/am/law_article?law_name_or_canonical_id=LAW-1c1831a72e&article_number=17')).json;
  assert.equal(b.article_id, a.article_id);
  const missing = (await get(app, '/v1/am/law_article?law_name_or_canonical_id=LAW-1c1831a72e&article_number=9999')).json;
  assert.equal(missing.found, false);
  assert.equal(missing.error.code, 'no_matching_records');
  const unshipped = (await get(app, '/v1/am/law_article?law_name_or_canonical_id=LAW-97349056fd&article_number=1')).json;
  assert.equal(unshipped.error.code, 'no_matching_records');
  assert.ok(unshipped.source_url.startsWith('https://laws.e-gov.go.jp/'));
  assert.equal((await get(app, '/v1/am/law_article?law_name_or_canonical_id=x&article_number=abc')).json.error.code, 'invalid_input');
});

test('reason: slots extracted, every [n] in the skeleton points to a served source_url', async (t) => {
  const app = await build(t);
  const r = (await get(app, `/v1/am/reason?query=${encodeURIComponent('東京都の製造業で500万円以上の設備投資補助金')}`)).json;
  hasKeys(r, [
    'answer_skeleton',
    'intent',
    'intent_name_ja',
    'persona_hint',
    'confidence',
    'db_bind_ok',
    'db_bind_notes',
    'filters_extracted',
    'missing_data',
    'precompute_gaps',
    'retry_with',
    'source_urls',
    'error',
  ]);
  assert.equal(r.intent, 'search_subsidy');
  assert.equal(r.filters_extracted.prefecture, '東京都');
  assert.equal(r.filters_extracted.amount.man_yen, 500);
  assert.equal(r.filters_extracted.industry.jsic_major, 'E');
  assert.equal(r.db_bind_ok, true);
  const refs = [...r.answer_skeleton.matchAll(/\[(\d+)\]/g)].map((m: RegExpMatchArray) => Number(m[1]));
  assert.ok(refs.length > 0);
  for (const n of refs) assert.ok(n >= 1 && n <= r.source_urls.length);
  for (const line of r.answer_skeleton.split('\n').slice(1)) assert.match(line, /\[\d+\]$/);
  const tax = (await get(app, `/v1/am/reason?query=${encodeURIComponent('インボイスの経過措置')}&persona=tax_advisor`)).json;
  assert.equal(tax.intent, 'tax_measure');
  assert.ok(tax.source_urls.every((u: string) => u.startsWith('https://')));
  const enf = (await get(app, `/v1/am/reason?query=${encodeURIComponent('取引先の行政処分を確認したい')}`)).json;
  assert.ok(enf.missing_data.length > 0);
  assert.equal((await get(app, '/v1/am/reason?query=x&persona=wizard')).json.error.code, 'invalid_enum');
});

test('related: depth 1 vs 2, relation_types filter, unknown seed -> seed_not_found', async (t) => {
  const app = await build(t);
  const d1 = (await get(app, '/v1/am/related/UNI-194743d166')).json;
  hasKeys(d1, ['seed_id', 'seed_kind', 'depth', 'total_edges', 'nodes', 'relations', 'hint', 'retry_with', 'error']);
  assert.equal(d1.depth, 1);
  assert.equal(d1.seed_kind, 'program');
  assert.ok(d1.total_edges > 0);
  assert.ok(d1.relations.every((r: any) => r.hop === 1 && (r.src_id === 'UNI-194743d166' || r.dst_id === 'UNI-194743d166')));
  const d2 = (await get(app, '/v1/am/related/UNI-194743d166?depth=2&max_edges=500')).json;
  assert.ok(d2.total_edges > d1.total_edges);
  assert.ok(d2.relations.some((r: any) => r.hop === 2));
  assert.ok(d2.nodes.some((n: any) => n.depth === 2));
  const inc = (await get(app, '/v1/am/related/UNI-194743d166?relation_types=incompatible')).json;
  assert.ok(inc.total_edges > 0 && inc.relations.every((r: any) => r.relation === 'incompatible'));
  assert.equal((await get(app, '/v1/am/related/UNI-194743d166?relation_types=friend')).json.error.code, 'invalid_enum');
  const none = await get(app, '/v1/am/related/UNI-nothing');
  assert.equal(none.status, 200);
  assert.equal(none.json.error.code, 'seed_not_found');
  assert.deepEqual(none.json.nodes, []);
  assert.equal((await get(app, '/v1/am/related/UNI-194743d166?depth=3')).status, 400);
  const law = (await get(app, '/v1/am/related/LAW-1c1831a72e?relation_types=based_on_law&max_edges=5')).json;
  assert.equal(law.total_edges, 5);
  assert.match(law.hint, /max_edges/);
});

test('validate: intake predicates, entity rules, applicant hash, cache, errors', async (t) => {
  const app = await build(t);
  const applicant = {
    company_name: '株式会社IKEMOTO',
    houjin_bangou: '3260001025496',
    prefecture: '岡山',
    municipality: '岡山市',
    employee_count: 13,
    founded_date: '2011-04-01',
    industry_jsic: 'D06',
  };
  const post = (payload: unknown) => app.inject({ method: 'POST', url: '/v1/am/validate', payload: payload as object });
  const res = await post({ applicant_data: applicant });
  assert.equal(res.statusCode, 200);
  const v = body(res);
  hasKeys(v, ['applicant_hash', 'entity_id', 'scope', 'total', 'results', 'summary', 'error']);
  assert.equal(v.scope, 'intake');
  assert.equal(v.total, 6);
  assert.equal(v.summary.fail, 0);
  assert.equal(v.cached, false);
  assert.match(v.applicant_hash, /^[0-9a-f]{64}$/);
  const reordered = Object.fromEntries(Object.entries(applicant).reverse());
  const again = body(await post({ applicant_data: reordered }));
  assert.equal(again.applicant_hash, v.applicant_hash);
  assert.equal(again.cached, true);
  const bad = body(
    await post({
      applicant_data: { houjin_bangou: '4260001025496', prefecture: 'Atlantis', employee_count: -3, founded_date: '2999-01-01', industry_jsic: 'Z9' },
    }),
  );
  const status = Object.fromEntries(bad.results.map((r: any) => [r.predicate_id, r.status]));
  assert.deepEqual(status, {
    required_fields: 'fail',
    houjin_bangou_check_digit: 'fail',
    location_exists: 'fail',
    size_plausible: 'fail',
    dates_valid: 'fail',
    industry_code_valid: 'fail',
  });
  assert.equal(bad.summary.ok, false);
  const wrongCity = body(await post({ applicant_data: { ...applicant, municipality: '札幌市' } }));
  assert.equal(wrongCity.results.find((r: any) => r.predicate_id === 'location_exists').status, 'fail');
  const pinned = body(await post({ applicant_data: applicant, entity_id: 'UNI-000780f85e', scope: 'entity' }));
  assert.equal(pinned.entity_id, 'UNI-000780f85e');
  assert.ok(pinned.results.every((r: any) => r.scope === 'entity'));
  assert.equal(pinned.results.find((r: any) => r.predicate_id === 'entity_prefecture').status, 'fail');
  const tax = body(
    await post({
      applicant_data: {
        supplier_is_qualified_invoice_issuer: false,
        transaction_date_serial: 20240101,
        classified_invoice_retained: true,
        application_date: '2024-01-01',
      },
      entity_id: 'TAX-e1854fe12c',
      scope: 'entity',
    }),
  );
  assert.equal(tax.results.find((r: any) => r.predicate_id === 'entity_tax_conditions').status, 'pass');
  assert.equal(body(await post({ applicant_data: {}, entity_id: 'UNI-none' })).error.code, 'seed_not_found');
  assert.equal(body(await post({ applicant_data: {}, scope: 'everything' })).error.code, 'invalid_enum');
  assert.equal((await post({ entity_id: 'x' })).statusCode, 400);
  assert.equal((await post({ applicant_data: 'not an object' })).statusCode, 400);
});

test('unknown /v1/am paths are 404; schema garbage is 400', async (t) => {
  const app = await build(t);
  assert.equal((await app.inject('/v1/am/nothing')).statusCode, 404);
  assert.equal((await app.inject('/v1/am/related')).statusCode, 404);
  assert.equal((await app.inject({ method: 'POST', url: '/v1/am/intent' })).statusCode, 404);
  assert.equal((await app.inject('/v1/am/loans?limit=abc')).statusCode, 400);
  assert.equal((await app.inject('/v1/am/loans?limit=0')).statusCode, 400);
  assert.equal((await app.inject('/v1/am/open_programs?offset=-1')).statusCode, 400);
  assert.equal((await app.inject('/v1/am/active_at?bogus=1')).statusCode, 400);
});

test('hostile inputs never give a 500', async (t) => {
  const app = await build(t);
  const nasty = [
    '"',
    "'; DROP TABLE am_entities; --",
    'NEAR(a b)',
    '*',
    '%',
    '_',
    '\\',
    '\u0000',
    '😀🚀',
    'ＮＥＡＲ（',
    'x'.repeat(5000),
    '-1',
    '99999999999999999999',
  ];
  const urls = (v: string) => {
    const e = encodeURIComponent(v);
    return [
      `/v1/am/active_at?date=${e}&query=${e}`,
      `/v1/am/open_programs?pivot_date=${e}&query=${e}`,
      `/v1/am/annotations/${e}`,
      `/v1/am/by_law?law_name=${e}&article=${e}`,
      `/v1/am/provenance/${e}`,
      `/v1/am/provenance/UNI-000780f85e/${e}`,
      `/v1/am/loans?name_query=${e}&provider=${e}&min_amount_yen=${e}`,
      `/v1/am/mutual_plans?name_query=${e}`,
      `/v1/am/tax_rule?measure_name_or_id=${e}&as_of=${e}`,
      `/v1/am/gx_programs?theme=${e}&region=${e}`,
      `/v1/am/enforcement?houjin_bangou=${e}&target_name=${e}&as_of_date=${e}`,
      `/v1/am/enums/${e}`,
      `/v1/am/intent?query=${e}`,
      `/v1/am/law_article?law_name_or_canonical_id=${e}&article_number=${e}`,
      `/v1/am/reason?query=${e}`,
      `/v1/am/related/${e}?depth=${e}`,
    ];
  };
  for (const v of nasty) {
    for (const url of urls(v)) {
      const res = await app.inject(url);
      assert.ok(res.statusCode < 500, `${res.statusCode} for ${url.slice(0, 120)}`);
      assert.doesNotMatch(res.body, /SQLITE|at .*\.ts:\d+/);
    }
    const res = await app.inject({
      method: 'POST',
      url: '/v1/am/validate',
      payload: {
        applicant_data: { [v.slice(0, 100)]: v, houjin_bangou: v, prefecture: v, founded_date: v, employee_count: -1e308 },
        entity_id: v.slice(0, 100),
      },
    });
    assert.ok(res.statusCode < 500, `${res.statusCode} for validate ${v.slice(0, 20)}`);
  }
});
