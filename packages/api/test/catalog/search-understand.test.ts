// Query understanding (catalog/search/understand.ts) and the engine's
// structured filters, as units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { understandQuery } from '../../src/catalog/search/understand.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';
import { needOfQuery } from '../../src/catalog/search/need.ts';
import { fitOf } from '../../src/catalog/search/rank.ts';
import { peopleGroupsIn } from '../../src/catalog/search/people-groups.ts';
import { searchNormalize } from '../../src/catalog/search-text.ts';
import type { ProgramColumns } from '../../src/catalog/search/index.ts';

const read = (params: Record<string, unknown>) => readProgramQuery(params, '2026-11-23');
import { build, testCatalog } from '../helper.ts';

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

test('an English asker word in the singular as in the plural (employee, employees)', () => {
  const need = needOfQuery(understandQuery('employee training subsidy'));
  assert.ok(need.audiences.includes('中小企業') && !need.audiences.includes('医療・福祉事業者'), 'a business, not any enterprise');
});

test('a care provider named as the asker: its field filters, its kind of body says who asks (decision 0339)', () => {
  const q = understandQuery('障害福祉サービス事業所 補助金')!;
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['障害', '福祉'],
  );
  assert.ok(q.audiences.includes('医療・福祉事業者'));
  assert.deepEqual(terms('事業所 補助金'), ['事業所'], 'a body alone is what there is to match');
});

test('a katakana compound is one term; a word of whom a programme is for is soft (decision 0338)', () => {
  assert.deepEqual(terms('サイバーセキュリティ対策 中小企業'), ['さいばーせきゅりてぃ', '中小企業'], 'not さい + ばー + せきゅりてぃ');
  const q = understandQuery('岡山県 中小企業 省エネ設備')!;
  assert.deepEqual(
    q.required.filter((g) => g.soft === true).map((g) => g.term),
    ['中小企業'],
  );
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

test('who is asking: business words, NPO or farmers are read as the audiences the fit part prefers; nothing when q does not say', () => {
  const business = ['中小企業', '小規模事業者', '個人事業主', '法人', '中堅企業', 'スタートアップ', '創業予定者'];
  assert.deepEqual(understandQuery('従業員の研修費用を補助してほしい')!.audiences, business);
  assert.deepEqual(understandQuery('training subsidy for our staff')!.audiences, business, 'a Latin word as a whole word');
  assert.deepEqual(understandQuery('NPOの助成金')!.audiences, ['NPO']);
  assert.deepEqual(understandQuery('農家の後継ぎ')!.audiences, ['農林漁業者', '新規就農者']);
  assert.deepEqual(understandQuery('子育て 支援')!.audiences, [], 'a resident or a business: q does not say');
  assert.deepEqual(understandQuery('staffing')!.audiences, [], 'staff only as a word of its own');
  const enterprise = understandQuery('展示会に出展したい')!.audiences;
  assert.ok(enterprise.includes('中小企業') && enterprise.includes('農林漁業者'), 'a need only an enterprise has: a business, a farm or a care provider');
  assert.ok(!understandQuery('社員研修 助成金')!.audiences.includes('農林漁業者'), 'a word that says more (社員) decides');
  const need = needOfQuery(understandQuery('会社で新しい技術を研究開発したい'));
  const row = (targetTypes: string[]) => ({ fundingPurpose: [], jsicMajors: [], targetTypes }) as unknown as ProgramColumns;
  assert.ok(fitOf(need, row(['中小企業'])) > 0, 'a programme for SMEs fits a company');
  assert.ok(fitOf(need, row(['大学・研究機関'])) < 0, 'one for researchers ranks down for a company');
  assert.equal(fitOf(need, row([])), 0, 'one that states no applicants is neither');
  const large = { ...row(['スタートアップ']), forLargeCompanies: true } as ProgramColumns;
  assert.ok(fitOf(need, large) < 0, 'a programme whose name says it is for large companies is not for a company asking here');
});

test("a programme for research-based start-ups is another applicant's for a founder naming no research (decision 0335)", () => {
  const row = { fundingPurpose: [], jsicMajors: [], targetTypes: ['スタートアップ'], forResearchStartups: true } as unknown as ProgramColumns;
  const founder = needOfQuery(understandQuery('美容院を開きたい'));
  assert.ok(founder.audiences.length > 0 && founder.research !== true);
  assert.ok(fitOf(founder, row) < 0, "a deep-tech programme is not a hairdresser's");
  assert.ok(fitOf(needOfQuery(understandQuery('大学と一緒に新しい技術を開発したい')), row) >= 0, 'research named: not ranked down');
  assert.equal(needOfQuery(understandQuery('福岡市 スタートアップ 支援')).research, true, 'a start-up typed as such');
  assert.notEqual(needOfQuery(understandQuery('起業したい')).research, true, '起業 read with スタートアップ as a synonym is not one');
});

test('a need naming a group of people: a programme or course naming only other groups ranks down (decision 0336)', () => {
  const row = (name: string) =>
    ({ fundingPurpose: [], jsicMajors: [], targetTypes: [], peopleGroups: peopleGroupsIn(searchNormalize(name)) }) as unknown as ProgramColumns;
  const young = needOfQuery(understandQuery('若い人を雇いたいが応募が来ない'));
  assert.deepEqual(young.groups, ['若者']);
  assert.ok(fitOf(young, row('トライアル雇用助成金（障害者トライアルコース）')) < 0, 'a course for disabled hires');
  assert.equal(fitOf(young, row('トライアル雇用助成金')), 0, 'a programme naming no group');
  assert.equal(fitOf(young, row('女性、若者/シニア起業家支援資金')), 0, 'one naming the group among others');
  assert.equal(
    fitOf(needOfQuery(understandQuery('従業員を増やしたい')), row('トライアル雇用助成金（障害者トライアルコース）')) >= 0,
    true,
    'no group named: any',
  );
  assert.deepEqual(peopleGroupsIn(searchNormalize('hiring subsidy for young people')), ['若者'], 'English, as whole words');
});

test("a profile of another trade than farming: a farm programme is another trade's, whatever industry lists it (decision 0337)", () => {
  const farmIt = { fundingPurpose: ['IT・DX', '農林水産業'], jsicMajors: ['G'], targetTypes: [] } as unknown as ProgramColumns;
  const itFirm = { ...needOfQuery(null), industries: ['G'], industryFit: 'both' as const };
  assert.ok(fitOf(itFirm, farmIt) < 0, "農業DX推進のためのIT導入補助金 is not an IT firm's");
  assert.ok(fitOf({ ...itFirm, industries: ['A'] }, { ...farmIt, jsicMajors: ['A'] } as ProgramColumns) > 0, "a farm's own");
  assert.ok(fitOf(itFirm, { ...farmIt, fundingPurpose: ['IT・DX'] } as ProgramColumns) > 0, 'an IT programme listed under IT fits');
});

test("a company's size says nothing of a programme for care providers or farms of any size; a farmers' programme is another trade's (decision 0337, amended)", () => {
  const row = (targetTypes: string[]) => ({ fundingPurpose: [], jsicMajors: [], targetTypes }) as unknown as ProgramColumns;
  const careHome = { ...needOfQuery(null), industries: ['P'], industryFit: 'both' as const, size: 'sme' as const };
  assert.equal(fitOf(careHome, row(['医療・福祉事業者'])), 0, 'neither fits nor misses its size');
  assert.ok(fitOf(careHome, row(['住民'])) < 0, "a residents' programme is no company's");
  assert.ok(fitOf(careHome, row(['中小企業'])) > 0, 'an SME programme fits an SME');
  const maker = { ...careHome, industries: ['E'] };
  assert.ok(fitOf(maker, row(['農林漁業者'])) < 0, "a farmers' programme is another trade's for a maker");
});

test('a programme open to a legal form (法人, 個人事業主) serves whoever runs a business, a farmer too (decision 0389)', () => {
  const row = (targetTypes: string[]) => ({ fundingPurpose: [], jsicMajors: [], targetTypes }) as unknown as ProgramColumns;
  const farmer = needOfQuery(understandQuery('新規就農 支援'));
  assert.ok(farmer.audiences.includes('新規就農者') && !farmer.audiences.includes('法人'), 'the asker is a new farmer, not a legal form');
  assert.ok(fitOf(farmer, row(['法人', '個人事業主'])) > 0, '青年等就農資金 (法人, 個人事業主) fits a new farmer');
  assert.ok(fitOf(farmer, row(['学生'])) < 0, 'a programme for students does not');
  const resident = { ...farmer, audiences: ['住民'] };
  assert.ok(fitOf(resident, row(['法人'])) < 0, "a resident asking runs no business: a programme for 法人 is another applicant's");
});

test('a sentence that names a purpose and a trade: the purpose filters, the trade ranks', () => {
  const q = understandQuery('飲食店で起業したい')!;
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['創業'],
  );
  assert.deepEqual(
    q.optional.map((g) => g.term),
    ['飲食店'],
  );
  assert.deepEqual(terms('倉庫 省力化'), ['倉庫', '省力化'], 'keywords are matched as typed');
});

test('a trade named with 業, 業者 or 事業者 is also found by its stem; a one-character stem is not', () => {
  const alternatives = (q: string) => understandQuery(q)!.required[0].alternatives;
  assert.ok(alternatives('宮城県 水産業 支援').includes('水産'));
  assert.ok(alternatives('酒造業').includes('酒造'));
  assert.deepEqual(alternatives('林業者'), ['林業者'], '林 says too little');
});

test("English beyond the needs table: a purpose's English spelling in the programme vocabulary reads as its first match word, whole words only", () => {
  assert.deepEqual(terms('machinery subsidy'), ['設備投資']);
  assert.deepEqual(terms('cash flow help'), ['資金繰り'], 'a need: the other words only rank');
  assert.deepEqual(terms('recycling subsidy'), ['環境保全'], 'kept whole');
  assert.deepEqual(terms('energy saving equipment subsidy'), ['省えね', 'equipment'], 'the synonyms read the words they know first');
  assert.deepEqual(terms('business support'), ['business', 'support'], 'generic words only: left as typed');
  assert.deepEqual(terms('homes'), ['homes'], 'home only as a word of its own');
});

test('an amount in q is what the programme should fund, not a word of its name: read in 万円, the fit part prefers programmes that reach it', () => {
  const q = understandQuery('500万円くらいの設備投資に使える補助金')!;
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['設備投資'],
  );
  assert.equal(q.amountManYen, 500);
  assert.equal(understandQuery('上限1,000万円 省エネ')!.amountManYen, 1000);
  assert.equal(understandQuery('1.5億円の設備')!.amountManYen, 15000);
  assert.equal(understandQuery('省エネ 補助金')!.amountManYen, null);
  const need = needOfQuery(q);
  const row = (amountMax: number | null) => ({ fundingPurpose: [], jsicMajors: [], targetTypes: [], amountMax }) as unknown as ProgramColumns;
  assert.ok(fitOf(need, row(1250)) > 0, 'up to 1,250万円 funds it');
  assert.ok(fitOf(need, row(50)) < 0, 'up to 50万円 cannot');
  assert.equal(fitOf(need, row(null)), 0, 'no published amount: neither');
});

test("Sudachi's spellings of the vocabulary's words (sudachi-variants.json) reach the word, and through it the needs table", () => {
  assert.deepEqual(terms('借り換えしたい'), ['借換'], '借り換え spells 借換');
  assert.deepEqual(terms('ソーラーパネル 補助金'), ['太陽光'], 'ソーラーパネル spells solar panel, which the needs table reads');
  assert.deepEqual(terms('マーケッティング'), ['まーけてぃんぐ']);
  assert.deepEqual(terms('学習塾'), ['中小企業全般'], 'another lexeme of a group (学習, 研究) is not a spelling');
});

test('the needs table reads common trades and situations, the longest phrase first (子ども食堂 is not a restaurant)', () => {
  assert.deepEqual(terms('鉄工所'), ['製造業']);
  assert.deepEqual(terms('hair salon'), ['生活衛生業']);
  assert.deepEqual(terms('電気代を削減したい'), ['省えね']);
  assert.deepEqual(terms('焼肉屋を開きたい'), ['創業']);
  assert.ok(!terms('子ども食堂 補助金').includes('飲食店'));
});

test("a sentence's hiragana inflections rank but do not filter; katakana with its particle is segmented", () => {
  const q = understandQuery('創業したばかりで融資が受けにくい')!;
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['創業', '融資'],
  );
  assert.deepEqual(
    q.optional.map((g) => g.term),
    ['した', 'ばかり', '受け', 'にくい'],
  );
  assert.ok(
    !understandQuery('テイクアウトを始めたい')!.optional.some((g) => g.term.endsWith('を')),
    'テイクアウト and its particle を, not one word ていくあうとを',
  );
  assert.deepEqual(terms('ものづくりほじょきん'), ['ものづくりほじょきん'], 'hiragana typed alone is read whole');
  assert.deepEqual(terms('いちご 農家'), ['いちご', '農家'], 'a list of keywords is matched as typed');
});

test('a word that names a kind of support and filters is held by every programme of that kind', () => {
  const alternatives = (q: string) => understandQuery(q)!.required.find((g) => g.term === q.split(' ')[1])!.alternatives;
  assert.ok(alternatives('創業 融資').includes('loan'), '新規開業資金 and 創業関連保証 are loans without 融資 in their names');
  assert.ok(alternatives('事業承継 税制').includes('tax_measure'), "the catalogue's kind code");
  assert.ok(!understandQuery('創業 補助金')!.required.some((g) => g.alternatives.includes('subsidy')), '補助金 is generic: it ranks, it does not filter');
});

test('a loan asked for in a sentence finds the loans whose names say 資金 or 保証', async (t) => {
  const app = await build(t);
  const res = await app.inject(`/v1/programs/search?${new URLSearchParams({ q: '創業したばかりで融資が受けにくい', limit: '100' })}`);
  const rows = JSON.parse(res.body).results as { primary_name: string; program_kind: string | null }[];
  assert.ok(rows.length >= 20, `${rows.length} rows`);
  assert.ok(rows.some((r) => !/融資|貸付|ローン/u.test(r.primary_name) && r.program_kind === 'loan'));
});

test("a need that names nobody is a business's or a person's: a programme for institutions alone ranks as another applicant's", () => {
  const row = (targetTypes: string[]) => ({ fundingPurpose: [], jsicMajors: [], targetTypes, amountMax: null }) as unknown as ProgramColumns;
  const need = needOfQuery(understandQuery('大学と一緒に新しい技術を開発したい'));
  assert.deepEqual(need.audiences, [], 'no asker word');
  assert.ok(fitOf(need, row(['大学・研究機関'])) < 0, 'a research call for universities');
  assert.ok(fitOf(need, row(['地方公共団体'])) < 0, 'a grant to local governments');
  assert.equal(fitOf(need, row(['中小企業', '大学・研究機関'])), 0, 'a consortium call open to companies');
  assert.equal(fitOf(need, row([])), 0, 'no stated applicants: neither');
  const researcher = needOfQuery(understandQuery('研究者 研究開発 助成'));
  assert.deepEqual(researcher.audiences, ['大学・研究機関'], '研究者 says who asks');
  assert.ok(fitOf(researcher, row(['大学・研究機関'])) > 0);
});

test('the rest of a verb the needs table read is a wish ending; a need of two words is two concepts', () => {
  assert.deepEqual(terms('会社のホームページを作りたい'), ['ほーむぺーじ'], '作+りたい: りたい is not a word');
  assert.deepEqual(terms('後継ぎがいない'), ['事業承継']);
  assert.deepEqual(terms('障害者を雇いたい'), ['障害者', '雇用'], 'as the keywords 障害者雇用 are read');
  assert.deepEqual(terms('障害者雇用 助成金'), ['障害者', '雇用']);
  assert.deepEqual(terms('お客さんを増やしたい'), ['販路開拓']);
  assert.deepEqual(terms('借金を返すのが大変'), ['経営改善'], 'was 0 rows');
  assert.deepEqual(terms('いちご農家を始めたい'), ['新規就農'], 'a farm started is 新規就農, not 創業');
});

test('a broader spelling finds the narrower names one way: 賃上げ finds 業務改善助成金, the grant typed finds itself', () => {
  assert.ok(understandQuery('賃上げ 補助金')!.required[0].alternatives.includes('業務改善助成金'));
  assert.ok(!understandQuery('業務改善助成金')!.required.some((g) => g.alternatives.includes('賃上げ')));
  assert.ok(understandQuery('林業 支援')!.required[0].alternatives.includes('間伐'), 'a trade by what its schemes fund');
  assert.ok(understandQuery('EV 充電設備')!.required[0].alternatives.includes('くりーんえねるぎー自動車'));
});

test('ways of writing one word find each other and stay words of the sentence; words of action rank, they do not filter', () => {
  assert.deepEqual(understandQuery('子ども食堂 補助金')!.required[0].alternatives, ['子ども', 'こども', '子供']);
  assert.ok(understandQuery('障害福祉サービス事業所')!.required[0].alternatives.includes('障がい'));
  // 子ども is a spelling, not a concept the sentence was read as: 居場所 still filters (npo only ranks, decision 0387).
  assert.deepEqual(terms('NPOで子どもの居場所を作りたい'), ['子ども', '居場所'], 'a spelling is not a concept the sentence was read as');
  const q = understandQuery('鳥獣被害対策 補助')!;
  assert.equal(q.required.length, 1);
  assert.ok(q.generic.includes('対策'));
  assert.deepEqual(terms('ドローンを導入したい'), ['どろーん']);
});

test('English an owner writes, read into the needs (each found nothing)', () => {
  assert.deepEqual(terms('reduce electricity bill'), ['省えね']);
  assert.deepEqual(terms('replace old machines'), ['設備更新']);
  assert.deepEqual(terms('renovate empty house'), ['改修', '空き家']);
  assert.deepEqual(terms('empty shop subsidy'), ['空き店舗']);
  assert.deepEqual(terms('hotel renovation subsidy'), ['ほてる', '改修'], 'renovation is not a home');
});

test('more situations owners name (each found nothing or the wrong things)', () => {
  assert.deepEqual(terms('冷蔵庫を買い替えたい'), ['設備更新']);
  assert.deepEqual(terms('税金を減らしたい'), ['税制']);
  assert.deepEqual(terms('二店舗目を出したい'), ['出店']);
  assert.deepEqual(terms('週休3日にしたい'), ['働き方改革']);
  assert.deepEqual(terms('会社をたたみたい'), ['廃業']);
  assert.ok(understandQuery('業態転換したい')!.required[0].alternatives.includes('事業再構築'), 'the state scheme for it, by its old name too');
});

test('a sentence read into no need still lets its inflections only rank', () => {
  assert.deepEqual(terms('女性が働きやすい職場にしたい'), ['女性', '働き', '職場']);
  assert.deepEqual(terms('いちご 農家'), ['いちご', '農家'], 'keywords, not a sentence');
});

test('English read as the Japanese an owner types (vocabulary.json english): trades, who asks, programmes by name, cities, plurals', () => {
  const alts = (q: string) => understandQuery(q)!.required.map((g) => g.alternatives);
  assert.deepEqual(terms('career up grant'), ['きゃりああっぷ助成金'], 'a programme known by its English name');
  assert.deepEqual(terms('IT introduction subsidy'), ['it導入補助金']);
  assert.deepEqual(terms('Sapporo startup support'), ['札幌市', 'startup'], 'a city in romaji is its municipality');
  assert.deepEqual(terms('how can I get a subsidy for my restaurant'), ['飲食店'], 'words of asking are stopwords');
  assert.deepEqual(terms('hair salons'), terms('hair salon'), 'a plural the tables lack is read as its singular');
  assert.deepEqual(terms('printing companies'), terms('印刷業'), 'the Japanese word an English one is read as meets the needs table');
  const smes = understandQuery('R&D grant for small companies')!;
  assert.deepEqual(
    smes.optional.map((g) => g.term),
    ['中小企業'],
    'who asks ranks, as 中小企業 does in a sentence',
  );
  assert.ok(alts('construction company subsidy')[0].includes('持続化'), 'an English trade is a trade');
  assert.deepEqual(terms('gadgets'), ['gadgets'], 'a plural whose singular nothing knows is left as typed');
  assert.deepEqual(terms('subsidy for childcare facility'), ['保育所'], 'a phrase holding a needs phrase (childcare) is read first');
  assert.deepEqual(terms('support to raise minimum wage'), ['最低賃金']);
  assert.deepEqual(terms('sogyo hojokin Tokyo'), ['創業'], 'romaji of the words of programmes');
  assert.deepEqual(terms('koyo chosei joseikin'), ['雇用調整助成金']);
  assert.deepEqual(terms('government support for small business'), ['小規模事業者'], 'government is a generic word');
  assert.ok(understandQuery('subsidies for farmers')!.audiences.includes('農林漁業者'), 'an English asker word in the plural says who asks');
  assert.ok(understandQuery('support for clinics')!.audiences.includes('医療・福祉事業者'));
});

test('a trade typed with no need beside it (建設業, 塗装業 補助金, 建設会社) also finds what its kind of business uses', () => {
  const alts = (q: string) => understandQuery(q)!.required.map((g) => g.alternatives);
  const building = alts('建設業');
  assert.equal(building.length, 1);
  assert.deepEqual(building[0].slice(0, 2), ['建設業', '建設'], 'its own word first: the trade’s schemes lead');
  assert.ok(building[0].includes('持続化') && building[0].includes('it導入'), 'then the general SME programmes (industry_needs default)');
  assert.ok(alts('塗装業 補助金')[0].includes('持続化'), 'a trade no industry names is a business');
  assert.deepEqual(understandQuery('塗装業')!.audiences, understandQuery('会社')!.audiences, 'a trade asks as a business');
  assert.ok(alts('建設会社')[0].includes('持続化'), 'an industry word beside 会社 names the trade');
  assert.deepEqual(alts('建設業 DX').length, 2, 'a need beside the trade: the trade is matched as typed');
  assert.ok(!alts('建設業 DX')[0].includes('持続化'));
  assert.deepEqual(alts('創業'), [understandQuery('創業')!.required[0].alternatives], 'a word of the trade form the vocabulary knows is not a trade');
  assert.ok(!alts('事業承継 支援')[0].includes('持続化'));
  assert.deepEqual(terms('会社設立'), ['創業'], 'founding a company is founding');
  assert.ok(alts('塗装会社')[0].includes('持続化'), 'any word beside 会社 names a trade');
  assert.ok(alts('葬儀社')[0].includes('持続化'), '…社 is a trade’s form');
  assert.deepEqual(alts('神社'), [['神社']], 'a word of that form no trade is (not_trades)');
  assert.deepEqual(alts('病院'), [['病院']], 'a clinic or a hospital is not served by the general SME programmes: its word alone');
  assert.deepEqual(alts('women business support'), [['女性']], 'business beside a word names no trade');
});

test('a business asking, naming no trade and no farming: a programme for farms, forests or fisheries is another trade (decision 0384)', () => {
  const row = (fundingPurpose: string[], jsicMajors: string[]) =>
    ({ fundingPurpose, jsicMajors, targetTypes: ['法人', '個人事業主'], amountMax: null }) as unknown as ProgramColumns;
  const farmDx = row(['IT・DX', '農林水産業'], ['A']);
  const fishery = row(['資金繰り'], ['B']);
  const general = row(['IT・DX'], []);
  // DX is an enterprise's need (decision 0386).
  for (const q of ['会社のDXを進めたい', 'DX', 'コロナの借入金の返済がきつい', '500万円くらいの設備投資に使える補助金']) {
    const need = needOfQuery(understandQuery(q));
    assert.equal(need.primarySector, false, q);
    assert.ok(fitOf(need, farmDx) < fitOf(need, general), `${q}: a farm's DX subsidy below the general one`);
    assert.ok(fitOf(need, fishery) < fitOf(need, general), `${q}: a fishery loan below the general programme`);
  }
  const nobody = needOfQuery(understandQuery('スマート化'));
  assert.equal(fitOf(nobody, farmDx), fitOf(nobody, general), 'nobody named: a farmer may be asking');
  for (const q of ['脱サラして農業を始めたい', '実家の農家を継ぎたい', '鳥獣被害 対策 事業者', '農福連携 会社', 'new farmer support Hokkaido']) {
    const need = needOfQuery(understandQuery(q));
    assert.equal(need.primarySector, true, `${q} names farming`);
    assert.equal(fitOf(need, farmDx), fitOf(need, general), `${q}: a farm programme is not another trade's`);
  }
  // A fishery named in a trade's form (漁業: B): its own programmes level with the general ones, a farm's another trade's (decision 0388).
  const fisher = needOfQuery(understandQuery('漁業 補助金'));
  assert.equal(fisher.primarySector, true);
  assert.equal(fitOf(fisher, fishery), fitOf(fisher, general));
  assert.ok(fitOf(fisher, farmDx) < fitOf(fisher, general));
  // A match profile that gives its industry is compared by it (FIT_INDUSTRY / OTHER_INDUSTRY), not by this rule.
  const farmer = { ...needOfQuery(understandQuery('会社のDXを進めたい')), industries: ['A'], industryFit: 'both' as const };
  assert.ok(fitOf(farmer, farmDx) > fitOf(farmer, general));
});

test('費用 and 経費 say money is wanted, as 資金 does: they rank, they do not filter (decision 0385)', () => {
  const q = understandQuery('特許出願 費用 補助')!;
  assert.deepEqual(
    q.required.map((g) => g.term),
    ['特許出願'],
  );
  assert.ok(q.generic.includes('費用'));
  assert.deepEqual(terms('展示会 出展 経費'), ['展示会', '出展']);
});

test('DX and デジタル化 are an enterprise’s need, as IT導入 is (decision 0386)', () => {
  for (const q of ['DX', 'デジタル化 補助金']) {
    const audiences = understandQuery(q)!.audiences;
    assert.ok(audiences.includes('中小企業') && audiences.includes('農林漁業者'), `${q}: ${audiences}`);
  }
  const row = (fundingPurpose: string[], jsicMajors: string[]) =>
    ({ fundingPurpose, jsicMajors, targetTypes: ['法人'], amountMax: null }) as unknown as ProgramColumns;
  const need = needOfQuery(understandQuery('DX'));
  assert.ok(fitOf(need, row(['IT・DX', '農林水産業'], ['A'])) < fitOf(need, row(['IT・DX'], [])), 'a farm DX programme below the general one');
});

test("the purposes q names are read with the programme vocabulary's own words, not a list of their own (decision 0382)", () => {
  const purposes = (q: string) => understandQuery(q)!.purposes;
  assert.deepEqual(purposes('設備更新'), ['設備投資']);
  assert.deepEqual(purposes('古い機械を入れ替えたい'), ['設備投資']);
  assert.deepEqual(purposes('電気自動車'), ['省エネ・脱炭素']);
  assert.deepEqual(purposes('EV'), ['省エネ・脱炭素'], 'a Latin word as a whole word');
  assert.deepEqual(purposes('人手不足'), ['雇用・人材確保']);
  assert.deepEqual(purposes('ペットサロン'), [], 'a word of no purpose');
  // A trade's word is also a purpose's: alone it is what is asked; beside a purpose it says who asks.
  assert.deepEqual(purposes('旅館 補助金'), ['観光']);
  assert.deepEqual(purposes('ゲストハウスを始めたい'), ['創業']);
  // Farming, forestry and fishery keep theirs: their programmes are their own (decision 0384).
  assert.deepEqual([...purposes('林業 機械 導入')].sort(), ['設備投資', '農林水産業'].sort());
});

test('a municipality named in q is a place: its own and its prefecture’s programmes rank first, another municipality’s last (decision 0382)', async (t) => {
  const q = understandQuery('浜松市 農業 補助金')!;
  assert.deepEqual(q.municipalities, [{ prefecture: '静岡県', municipality: '浜松市' }]);
  assert.deepEqual(q.prefectures, [], 'a municipality alone names no prefecture-wide search');
  assert.deepEqual(understandQuery('静岡県浜松市 創業')!.municipalities, [{ prefecture: '静岡県', municipality: '浜松市' }]);
  assert.deepEqual(understandQuery('農業 補助金')!.municipalities, []);
  const app = await build(t);
  const res = await app.inject(`/v1/programs/search?q=${encodeURIComponent('浜松市 農業 補助金')}&limit=20`);
  assert.equal(res.statusCode, 200);
  const rows = res.json<{ results: { primary_name: string; prefecture: string | null; municipality: string | null; authority_level: string | null }[] }>()
    .results;
  assert.ok(rows.length >= 10);
  assert.equal(rows[0].municipality, '浜松市', rows[0].primary_name);
  const elsewhere = rows.filter((r) => r.prefecture !== null && (r.prefecture !== '静岡県' || (r.municipality !== null && r.municipality !== '浜松市')));
  assert.deepEqual(
    elsewhere.map((r) => r.primary_name),
    [],
    "no other municipality's or prefecture's programme on the first page",
  );
  const firstNational = rows.findIndex((r) => r.prefecture === null);
  const lastLocal = rows.findLastIndex((r) => r.municipality === '浜松市');
  assert.ok(firstNational === -1 || lastLocal < firstNational, "the municipality's programmes before the national ones");
});

test('who asks, beside two words of what is wanted, ranks and does not filter; a business word and a lone need word keep it (decision 0387)', () => {
  const ibasho = understandQuery('NPOで子どもの居場所を作りたい')!;
  assert.deepEqual(
    ibasho.required.map((g) => g.term),
    ['子ども', '居場所'],
  );
  assert.ok(ibasho.optional.some((g) => g.term === 'npo'));
  assert.deepEqual(ibasho.audiences, ['NPO'], 'still who asks: the fit part prefers programmes for NPOs');
  assert.ok(terms('NPOの活動資金がほしい').includes('npo'), 'one word left (活動) is too broad to stand alone');
  assert.ok(terms('中小企業 研究開発 補助金').includes('研究開発'));
  assert.ok(understandQuery('startup loan Osaka')!.purposes.includes('創業'), "a purpose's English spelling reads as the purpose");
});

test("a trade q names in a trade's form is the need's industry: another trade's programmes rank down, its own do not rank up (decision 0388)", () => {
  assert.deepEqual(understandQuery('飲食店')!.industries, ['M']);
  assert.deepEqual(understandQuery('印刷業')!.industries, ['E'], 'read into 製造業 by the needs table');
  assert.deepEqual(understandQuery('建設業 ICT建機 補助')!.industries, ['D']);
  assert.deepEqual(understandQuery('省エネ 補助金')!.industries, [], 'no trade named');
  const need = needOfQuery(understandQuery('飲食店'));
  const row = (jsicMajors: string[]) => ({ fundingPurpose: [], jsicMajors, targetTypes: [], amountMax: null }) as unknown as ProgramColumns;
  assert.equal(fitOf(need, row(['M'])), fitOf(need, row([])), "the trade's own programme level with the general ones");
  assert.ok(fitOf(need, row(['A'])) < fitOf(need, row([])), "another trade's below");
});
