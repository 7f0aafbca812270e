import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { classifyIntent, INTENTS } from '../../src/entity-graph/intent.ts';
import { canonicalJson, applicantHash } from '../../src/entity-graph/canonical-json.ts';
import { extractAmount, extractHoujinBangou, extractIndustry, extractPrefecture, extractTarget, normalizePrefecture } from '../../src/entity-graph/slots.ts';
import { articleFromKey, articleSortKey, parseArticleNumber } from '../../src/catalog/article-numbers.ts';
import { kanjiToNumber } from '../../src/catalog/japanese-numbers.ts';
import { lawNameVariants } from '../../src/entity-graph/law-names.ts';
import { resolveDate } from '../../src/entity-graph/params.ts';
import { isValidHoujinBangou } from '../../src/catalog/houjin.ts';
import { isIsoDate } from '../../src/lib/time.ts';
import { Lru } from '../../src/lib/lru.ts';
import { evalCondition } from '../../src/entity-graph/validate.ts';

test('intent: Japanese questions map to their intent', () => {
  const cases: [string, string][] = [
    ['東京都で使える設備投資の補助金を教えて', 'search_subsidy'],
    ['経営開始資金と雇用就農資金は併用できますか', 'exclusion_combo'],
    ['インボイスの2割特例はいつまで使える？', 'tax_measure'],
    ['無担保で借りられる創業融資', 'loan_finance'],
    ['補助金適正化法第17条の条文を見たい', 'law_lookup'],
    ['取引先に行政処分歴や不正受給がないか', 'enforcement_check'],
    ['今募集中の助成金の締切', 'deadline_schedule'],
    ['経営革新計画の認定制度について', 'certification'],
    ['製造業のDX補助金の活用事例', 'case_study'],
    ['個人事業主でも申請できますか', 'check_eligibility'],
  ];
  for (const [q, id] of cases) assert.equal(classifyIntent(q).intent_id, id, q);
  // The search's normalisation: kana and width folded, as for GET /v1/programs/search.
  assert.equal(classifyIntent('いんぼいすの2割特例').intent_id, 'tax_measure');
  assert.equal(classifyIntent('ｲﾝﾎﾞｲｽの経過措置').intent_id, 'tax_measure');
});

test('intent: English questions map to their intent', () => {
  assert.equal(classifyIntent('Which grants can I get in Osaka?').intent_id, 'search_subsidy');
  assert.equal(classifyIntent('startup loan without collateral').intent_id, 'loan_finance');
  assert.equal(classifyIntent('Am I eligible for this?').intent_id, 'check_eligibility');
  assert.equal(classifyIntent('tax credit for wage increases').intent_id, 'tax_measure');
  assert.equal(classifyIntent('is this company under a debarment?').intent_id, 'enforcement_check');
  // Word boundaries: "act" inside "contact" is not a law cue.
  assert.equal(classifyIntent('contact').all_scores.find((s) => s.intent_id === 'law_lookup')!.score, 0);
});

test('intent: scores sorted, confidence normalised, samples present, no match -> confidence 0', () => {
  const r = classifyIntent('補助金と税額控除を併用したい');
  const scores = r.all_scores.map((s) => s.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  assert.equal(r.all_scores.length, INTENTS.length);
  const sum = r.all_scores.reduce((s, x) => s + x.confidence, 0);
  assert.ok(Math.abs(sum - 1) < 0.01);
  assert.ok(r.confidence > 0 && r.confidence < 1);
  assert.ok(r.sample_queries.length >= 3);
  const none = classifyIntent('xyzzy');
  assert.equal(none.confidence, 0);
  assert.equal(none.matched, false);
  for (const i of INTENTS) assert.equal(classifyIntent(i.sample_queries[0]).intent_id, i.id, i.sample_queries[0]);
});

test('slots: prefecture full names, short forms, romaji; 京都 is not found inside 東京都', () => {
  assert.equal(extractPrefecture('東京都の補助金')?.prefecture, '東京都');
  assert.equal(extractPrefecture('東京で創業')?.prefecture, '東京都');
  assert.equal(extractPrefecture('大阪の飲食店')?.prefecture, '大阪府');
  assert.equal(extractPrefecture('京都の旅館')?.prefecture, '京都府');
  assert.equal(extractPrefecture('東京都内の京都料理店')?.prefecture, '東京都');
  assert.equal(extractPrefecture('grants in Hokkaido')?.prefecture, '北海道');
  assert.equal(extractPrefecture('補助金を教えて'), null);
  assert.equal(normalizePrefecture('神奈川'), '神奈川県');
  assert.equal(normalizePrefecture('Narnia'), null);
});

test('slots: amounts, industry, target, corporate number', () => {
  assert.deepEqual(extractAmount('500万円以上'), { man_yen: 500, matched: '500万円' });
  assert.equal(extractAmount('1億円')?.man_yen, 10000);
  assert.equal(extractAmount('１，０００万円')?.man_yen, 1000);
  assert.equal(extractAmount('五百万円')?.man_yen, 500);
  assert.equal(extractAmount('3000000円')?.man_yen, 300);
  assert.equal(extractAmount('金額未定'), null);
  assert.equal(extractIndustry('製造業の設備')?.jsic_major, 'E');
  assert.equal(extractIndustry('IT企業')?.jsic_major, 'G');
  assert.equal(extractIndustry('飲食店')?.jsic_major, 'M');
  assert.equal(extractTarget('中小企業向け')?.target, 'sme');
  assert.equal(extractTarget('個人事業主です')?.target, 'sole_proprietor');
  assert.equal(extractTarget('新規就農したい農業者')?.target, 'new_farmer');
  assert.equal(extractHoujinBangou('法人番号3260001025496の会社'), '3260001025496');
  assert.equal(extractHoujinBangou('12345678901234'), null);
});

test('canonical JSON: keys sorted by code point at every depth, no whitespace, non-ASCII as itself', () => {
  assert.equal(canonicalJson({ b: 1, a: [3, { d: 1, c: 2 }] }), '{"a":[3,{"c":2,"d":1}],"b":1}');
  assert.equal(canonicalJson({ 名前: '株式会社', a: null }), '{"a":null,"名前":"株式会社"}');
  // U+FF61 sorts before U+1F600 by code point although its UTF-16 unit is larger than the surrogate.
  assert.equal(canonicalJson({ '😀': 1, '｡': 2 }), '{"｡":2,"😀":1}');
  assert.equal(canonicalJson({ s: 'a"b\n' }), '{"s":"a\\"b\\n"}');
  assert.equal(canonicalJson([1.5, true, false, 'é']), '[1.5,true,false,"é"]');
});

test('applicant hash: SHA-256 hex of the canonical UTF-8 text; key order does not matter', () => {
  const a = applicantHash({ prefecture: '東京都', employees: 5 });
  const b = applicantHash({ employees: 5, prefecture: '東京都' });
  assert.equal(a, b);
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.equal(a, createHash('sha256').update('{"employees":5,"prefecture":"東京都"}', 'utf8').digest('hex'));
  assert.notEqual(a, applicantHash({ employees: 6, prefecture: '東京都' }));
});

test('text helpers: corporate-number check digit, dates, article numbers, law names', () => {
  // Real numbers pass; a changed digit, a short or long number or a letter fails.
  for (const n of ['3260001025496', '6010401117444', '6011001137238']) assert.equal(isValidHoujinBangou(n), true, n);
  for (const n of ['4260001025496', '7010401117444', '6010401117445', '326000102549', '60104011174440', 'a010401117444'])
    assert.equal(isValidHoujinBangou(n), false, n);
  assert.equal(isIsoDate('2024-02-29'), true);
  assert.equal(isIsoDate('2025-02-29'), false);
  assert.equal(resolveDate('today', '2026-01-01'), '2026-01-01');
  assert.equal(resolveDate('2026-13-01', '2026-01-01'), null);
  assert.equal(kanjiToNumber('二十一'), 21);
  assert.equal(kanjiToNumber('百二'), 102);
  assert.deepEqual(parseArticleNumber('第二十一条の二'), { main: 21, branches: [2], supplementary: false });
  assert.deepEqual(parseArticleNumber('21-2'), { main: 21, branches: [2], supplementary: false });
  assert.deepEqual(parseArticleNumber('附則第3条'), { main: 3, branches: [], supplementary: true });
  assert.deepEqual(parseArticleNumber('第17条第2項'), { main: 17, branches: [], supplementary: false });
  assert.equal(parseArticleNumber('abc'), null);
  assert.equal(articleSortKey(parseArticleNumber('21条の2')!), articleSortKey(articleFromKey('21_2')!));
  assert.equal(articleFromKey('1_附3')?.supplementary, true);
  assert.ok(lawNameVariants('補助金適正化法').includes('補助金等に係る予算の執行の適正化に関する法律'));
  assert.ok(lawNameVariants('個人情報の保護に関する法律').includes('個人情報の保護法'));
});

test('LRU cache evicts the least recently used entry; upstream predicates evaluate three-valued', () => {
  const c = new Lru<string, number>(2);
  c.set('a', 1);
  c.set('b', 2);
  assert.equal(c.get('a'), 1);
  c.set('c', 3);
  assert.equal(c.get('b'), undefined);
  assert.equal(c.get('a'), 1);
  assert.equal(c.size, 2);
  const cond = {
    op: 'all',
    of: [
      { op: 'eq', field: 'x', value: true },
      { op: 'gte', field: 'n', value: 3 },
    ],
  };
  assert.equal(evalCondition(cond, { x: true, n: 3 }), true);
  assert.equal(evalCondition(cond, { x: false, n: 3 }), false);
  assert.equal(evalCondition(cond, { x: true }), null);
});
