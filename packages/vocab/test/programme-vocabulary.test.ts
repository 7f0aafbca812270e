// The programme vocabulary: its data keeps the shape other modules rely on,
// and the accessors map spellings onto terms and find terms in text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AUDIENCES,
  AUDIENCE_TERMS,
  INDUSTRIES,
  INDUSTRY_CODES,
  PURPOSES,
  PURPOSE_TERMS,
  audiencesIn,
  industriesIn,
  normalizeAudience,
  normalizeIndustry,
  normalizePurpose,
  purposesIn,
} from '../src/index.ts';

test('the vocabulary holds the purposes, audiences and the JSIC majors A–T the catalogue promises', () => {
  for (const term of [
    '創業',
    '事業承継',
    '設備投資',
    '省エネ・脱炭素',
    'IT・DX',
    '販路開拓',
    '海外展開',
    '雇用・人材確保',
    '人材育成',
    '賃上げ',
    '研究開発',
    '災害復旧',
    '資金繰り',
    '新規就農',
    '働き方改革',
    '生産性向上',
    '観光',
    '地域活性化',
    '住宅',
  ]) {
    assert.ok(PURPOSE_TERMS.includes(term), `purpose ${term}`);
  }
  for (const term of ['中小企業', '小規模事業者', '個人事業主', '創業予定者', '農林漁業者', 'NPO', '住民'])
    assert.ok(AUDIENCE_TERMS.includes(term), `audience ${term}`);
  assert.deepEqual(INDUSTRY_CODES, 'ABCDEFGHIJKLMNOPQRST'.split(''));
  assert.equal(INDUSTRIES.find((i) => i.code === 'E')?.term, '製造業');
  for (const list of [PURPOSES, AUDIENCES, INDUSTRIES] as const) {
    assert.equal(new Set(list.map((e) => e.term)).size, list.length, 'terms are unique');
    for (const e of list) {
      assert.ok(e.en.length > 0, `${e.term} has an English spelling`);
      for (const s of e.en) assert.equal(s, s.toLowerCase(), `${e.term}: English spellings are lower case`);
      assert.equal(new Set(e.match).size, e.match.length, `${e.term}: match words are unique`);
    }
  }
});

test('spellings normalise to the term: the term, English, a match word; unknown -> null', () => {
  assert.equal(normalizePurpose('創業'), '創業');
  assert.equal(normalizePurpose('Startup'), '創業');
  assert.equal(normalizePurpose('起業'), '創業');
  assert.equal(normalizePurpose('ＤＸ'), 'IT・DX');
  assert.equal(normalizePurpose('r&d'), '研究開発');
  assert.equal(normalizePurpose('宇宙旅行'), null);
  assert.equal(normalizeAudience('SME'), '中小企業');
  assert.equal(normalizeAudience('sole proprietor'), '個人事業主');
  assert.equal(normalizeAudience('npo'), 'NPO');
  assert.equal(normalizeAudience('sole_proprietor'), '個人事業主', 'an underscore reads as a space');
  assert.equal(normalizeAudience('corporation'), '法人');
  assert.equal(normalizeAudience('farmer'), '農林漁業者');
  assert.equal(normalizeAudience(''), null);
  assert.equal(normalizeIndustry('e'), 'E');
  assert.equal(normalizeIndustry('製造業'), 'E');
  assert.equal(normalizeIndustry('manufacturing'), 'E');
  assert.equal(normalizeIndustry('ものづくり'), 'E');
  assert.equal(normalizeIndustry('Z'), null);
});

test('terms are found in text by their match words; Latin words only as whole words', () => {
  assert.deepEqual(
    purposesIn('IT導入補助金').map((h) => h.term),
    ['IT・DX'],
  );
  assert.deepEqual(
    purposesIn('ITEM').map((h) => h.term),
    [],
    'IT inside a Latin word is no hit',
  );
  assert.deepEqual(
    purposesIn('事業承継・引継ぎ補助金').map((h) => [h.term, h.matched]),
    [['事業承継', '事業承継']],
  );
  assert.ok(purposesIn('省エネルギー設備導入補助金').some((h) => h.term === '省エネ・脱炭素'));
  assert.ok(purposesIn('省エネルギー設備導入補助金').some((h) => h.term === '設備投資'));
  assert.deepEqual(
    audiencesIn('小規模事業者持続化補助金').map((h) => h.term),
    ['小規模事業者'],
  );
  assert.ok(audiencesIn('個人事業主向けの融資').some((h) => h.term === '個人事業主'));
  assert.deepEqual(
    industriesIn('ものづくり補助金').map((h) => h.code),
    ['E'],
  );
});
