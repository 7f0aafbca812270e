// Query understanding (catalog/search/understand.ts) and the engine's
// structured filters, as units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { understandQuery } from '../../src/catalog/search/understand.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';

const read = (params: Record<string, unknown>) => readProgramQuery(params, '2026-11-23');
import { testCatalog } from '../helper.ts';

const terms = (q: string) => understandQuery(q)!.required.map((g) => g.term);

test('segmentation: Japanese without spaces becomes words; particles drop; lone kanji join their neighbour', () => {
  assert.deepEqual(terms('省エネ設備の補助金'), ['省えね', '設備']);
  assert.deepEqual(understandQuery('省エネ設備の補助金')!.generic, ['補助金']);
  assert.deepEqual(understandQuery('省エネ設備の補助金')!.phrases, ['省えね設備']);
  assert.deepEqual(terms('中山間地域'), ['中山間', '地域']);
  assert.deepEqual(terms('働き方見直し'), ['働き方', '見直し']);
  assert.deepEqual(terms('働き方改革'), ['働き方改革'], 'a word of the vocabulary stays whole');
  assert.equal(understandQuery('  '), null, 'nothing to search');
  assert.deepEqual(terms('の'), ['の'], 'particles only: the text itself is searched');
});

test('places and purposes named in q are signals; a place alone is what there is to match', () => {
  const q = understandQuery('東京都で創業する場合の補助金は？')!;
  assert.deepEqual(q.prefectures, ['東京都']);
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['創業'],
  );
  assert.ok(q.purposes.includes('創業'));
  assert.ok(q.kinds.includes('subsidy'));
  assert.deepEqual(understandQuery('Tokyo startup')!.prefectures, ['東京都']);
  assert.deepEqual(understandQuery('北海道 スマート農業')!.prefectures, ['北海道']);
  const alone = understandQuery('東京')!;
  assert.deepEqual(
    alone.required.map((g) => g.term),
    ['東京都'],
  );
});

test('synonyms and abbreviations are data: any spelling finds the others', () => {
  const dx = understandQuery('ＤＸ')!.required[0];
  assert.ok(dx.alternatives.includes('でじたるとらんすふぉーめーしょん'));
  assert.ok(understandQuery('省エネ')!.required[0].alternatives.includes('省えねるぎー'));
  assert.ok(understandQuery('IT導入補助金')!.required[0].alternatives.includes('でじたる化・ai導入補助金'));
  assert.deepEqual(
    understandQuery('補助金')!.required.map((g) => g.term),
    ['補助金'],
    'generic words alone are matched',
  );
  assert.equal(understandQuery('しょうえね')!.required[0].term, 'しょうえね', 'a kana word stays whole (matched against readings)');
});

test('needs: a situation described in a sentence becomes the word the search uses, the longest phrase first, one way only', () => {
  const startup = understandQuery('会社を始めたいけどお金がない')!;
  assert.deepEqual(
    startup.required.map((g) => g.term),
    ['創業'],
  );
  assert.deepEqual(startup.generic, ['お金'], 'お金 ranks, ない and けど say nothing');
  assert.deepEqual(terms('農業を始めたい'), ['新規就農'], '農業を始めたい wins over 始めたい');
  const cash = understandQuery('売上が落ちて資金繰りが苦しい')!;
  assert.deepEqual(
    cash.required.map((g) => g.term),
    ['資金繰り'],
    'two phrases of one need are one term',
  );
  assert.ok(cash.required[0].alternatives.includes('せーふてぃねっと'));
  assert.deepEqual(terms('社員がすぐ辞めてしまう'), ['人材確保']);
  assert.deepEqual(terms('ＴＯＫＹＯで起業したい'), ['創業'], 'phrases match after NFKC and case folding');
  assert.ok(!understandQuery('創業')!.required[0].alternatives.some((a) => a.includes('始め')), 'the word does not find the phrase');
});

test('engine filters: values are compared, never interpreted; excluded rows need include_excluded', async () => {
  const search = (await testCatalog()).search;
  const hostile = search.search({ query: read({ q: '補助金', prefecture: "東京都' OR 1=1 --" }), limit: 5, offset: 0 });
  assert.equal(hostile.total, 0);
  const visible = search.search({ query: read({ tier: ['X'] }), limit: 5, offset: 0 });
  assert.equal(visible.total, 0);
  const all = search.search({ query: read({ tier: ['X'], include_excluded: true }), limit: 5, offset: 0 });
  assert.ok(all.total > 0);
  const band = search.search({ query: read({ amount_min: 100, amount_max: 500 }), limit: 100, offset: 0 });
  for (const hit of band.hits) {
    const amount = search.index.rows[hit.pid].amountMax!;
    assert.ok(amount >= 100 && amount <= 500);
  }
});

test('a sentence is read into its need: wish endings drop, its incidental words rank but do not filter; keywords stay terms', () => {
  const need = understandQuery('若い人を雇いたいが応募が来ない')!;
  assert.deepEqual(terms('若い人を雇いたいが応募が来ない'), ['雇入れ助成']);
  assert.ok(need.required[0].alternatives.includes('とらいある雇用'), 'the need finds the programmes named for it');
  assert.deepEqual(
    need.optional.map((g) => g.term),
    ['若い人', '応募'],
  );
  assert.deepEqual(terms('古い機械を入れ替えたい'), ['設備更新']);
  assert.deepEqual(terms('パートを正社員にしたい'), ['正社員化'], 'read as a need, not the letters パート');
  assert.deepEqual(terms('solar panel subsidy'), ['太陽光'], 'English through the same table');
  assert.deepEqual(terms('hiring subsidy'), ['雇入れ助成']);
  assert.deepEqual(terms('宇都宮市で就農したい'), ['宇都宮市', '新規就農'], 'a municipality stays a term');
  assert.deepEqual(terms('地域おこし協力隊 起業'), ['地域おこし', '協力隊', '起業'], 'keywords are matched as typed');
});
