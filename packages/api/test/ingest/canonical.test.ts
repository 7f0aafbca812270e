// The rules that link records of one programme (src/ingest/canonical.ts) as pure functions:
// a short name in brackets, a renamed programme's own name (decision 0314).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aliasKeys, canonicalLinks, successorOwnKey, swappedKey } from '../../src/ingest/canonical.ts';
import { compactKey } from '../../src/catalog/search-text.ts';

test('aliasKeys: a short name in brackets that abbreviates the long one; a component of an umbrella is not one', () => {
  assert.deepEqual(aliasKeys('ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)'), [
    compactKey('ものづくり・商業・サービス生産性向上促進補助金'),
    compactKey('ものづくり補助金'),
  ]);
  assert.equal(aliasKeys('新規就農者育成総合対策事業（経営発展支援事業）'), null, 'a component, not an abbreviation');
  assert.equal(aliasKeys('肥育素牛導入事業（畜産総合振興対策事業）'), null, 'the umbrella in brackets');
});

test('successorOwnKey: a renamed programme is also its own name alone', () => {
  assert.equal(successorOwnKey('デジタル化・AI導入補助金（旧IT導入補助金）'), compactKey('デジタル化・AI導入補助金'));
  assert.equal(successorOwnKey('デジタル化・AI導入補助金'), null);
});

test('canonicalLinks: an alias joins both names in its place; categories, other places and an umbrella stay apart', () => {
  const m = (pid: number, name: string, prefecture: string | null = null) => ({ pid, name, prefecture, municipality: null });
  const links = canonicalLinks([
    m(1, 'ものづくり補助金'),
    m(2, 'ものづくり補助金（グローバル枠）'),
    m(3, 'ものづくり・商業・サービス生産性向上促進補助金'),
    m(4, 'ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)'),
    m(5, 'ものづくり補助金', '東京都'),
    m(6, '新規就農者育成総合対策事業'),
    m(7, '経営発展支援事業'),
    m(8, '新規就農者育成総合対策事業（経営発展支援事業）'),
    m(9, 'デジタル化・AI導入補助金（旧IT導入補助金）'),
    m(10, 'デジタル化・AI導入補助金'),
  ]);
  const pairs = new Set(links.map((l) => `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}:${l.rule}`));
  assert.ok(pairs.has('3-4:alias') && pairs.has('1-4:alias'));
  assert.ok(pairs.has('9-10:successor'), 'a renamed programme and its own name alone');
  assert.ok(![...pairs].some((p) => p.startsWith('1-2') || p.startsWith('2-')), 'a category stays apart');
  assert.ok(![...pairs].some((p) => /-5:/.test(p)), 'another place stays apart');
  assert.ok(![...pairs].some((p) => /^(6|7)-(7|8):alias/.test(p)), 'an umbrella and its component stay apart');
});

test('canonicalLinks swapped: one programme named two ways round, the lender ahead aside, in one place (decision 0333)', () => {
  assert.equal(swappedKey('経営環境変化対応資金（セーフティネット貸付）'), swappedKey('JFC セーフティネット貸付 (経営環境変化対応資金)'));
  assert.equal(swappedKey('経営環境変化対応資金'), null, 'no bracket');
  assert.equal(swappedKey('デジタル化・AI導入補助金（通常枠）'), null, 'a part too short to link by');
  const m = (pid: number, name: string, prefecture: string | null = null) => ({ pid, name, prefecture, municipality: null });
  const links = canonicalLinks([
    m(1, '経営環境変化対応資金（セーフティネット貸付）'),
    m(2, 'JFC セーフティネット貸付 (経営環境変化対応資金)'),
    m(3, '認定新規就農者制度（青年等就農計画制度）', '香川県'),
    m(4, '青年等就農計画制度（認定新規就農者制度）', '北海道'),
    m(5, '危機対応後経営安定資金（セーフティネット貸付）'),
  ]);
  const pairs = new Set(links.map((l) => `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}:${l.rule}`));
  assert.ok(pairs.has('1-2:swapped'), 'both ways round, one loan');
  assert.ok(!pairs.has('3-4:swapped'), 'another place stays apart');
  assert.ok(![...pairs].some((p) => /5:/.test(p)), 'another loan with the same bracket stays apart');
});

test("canonicalLinks national_page: a place's page named as a national programme's own record joins it; a local programme of another name does not (decision 0333)", () => {
  const m = (pid: number, name: string, prefecture: string | null, national = false) => ({ pid, name, prefecture, municipality: null, national });
  const links = canonicalLinks([
    m(1, '環境保全型農業直接支払交付金', null, true),
    m(2, '環境保全型農業直接支払交付金', '北海道'),
    m(3, '環境保全型農業直接支払交付金', '鳥取県'),
    m(4, '鳥取県環境保全型農業支援事業', '鳥取県'),
    m(5, '移住支援金制度', null),
    m(6, '移住支援金制度', '秋田県'),
  ]);
  const pairs = new Set(links.map((l) => `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}:${l.rule}`));
  assert.ok(pairs.has('1-2:national_page') && pairs.has('1-3:national_page'));
  assert.ok(![...pairs].some((p) => /-4:/.test(p)), 'a local programme of its own name stays');
  assert.ok(![...pairs].some((p) => p.startsWith('5-6')), "a record with no prefecture that is not a national body's is no national programme");
});

test('canonicalLinks prefixed: one page, a name with its place, authority or full head added; a course at the end or another place stays apart', () => {
  const m = (pid: number, name: string, url: string, prefecture: string | null = null, municipality: string | null = null) => ({
    pid,
    name,
    prefecture,
    municipality,
    url,
  });
  const jfc = 'https://www.jfc.go.jp/n/finance/search/20_kigyousaiken.html';
  const sogyo = 'https://r6.jizokukahojokin.info/sogyo/';
  const takasaki = 'https://www.city.takasaki.gunma.jp/page/39054.html';
  const date = 'https://www.city.date.hokkaido.jp/hotnews/detail/00006845.html';
  const links = canonicalLinks([
    m(1, 'JFC 企業再建資金', jfc),
    m(2, '企業再建資金', `${jfc}#top`),
    m(3, '小規模事業者持続化補助金（創業型）商工会地区分（第3回）', sogyo),
    m(4, '持続化補助金 創業型 商工会版 第3回', 'https://r6.jizokukahojokin.info/sogyo'),
    m(5, '高崎市 農地再生推進事業補助金', takasaki, '群馬県', '高崎市'),
    m(6, '農地再生推進事業補助金', takasaki, '群馬県', '高崎市'),
    m(7, '農地再生推進事業補助金（草刈機）', takasaki, '群馬県', '高崎市'),
    m(8, '伊達市農地流動化促進助成金', date, '福島県'),
    m(9, '農地流動化促進助成金', date, '北海道', '伊達市'),
    m(10, '企業再建資金', 'https://www.jfc.go.jp/n/finance/search/other.html'),
    m(11, '小規模事業者持続化補助金 創業型 (旧創業枠)', sogyo),
    m(12, '小規模事業者持続化補助金 創業型', sogyo),
    { ...m(13, 'セクシュアルハラスメント防止措置（改正男女雇用機会均等法）', 'https://www.mhlw.go.jp/a.html'), programme: false },
    m(15, '女性、若者/シニア起業家支援資金（中小企業事業）', 'https://www.jfc.go.jp/n/finance/index.html'),
    m(16, '女性、若者/シニア起業家支援資金', 'https://www.jfc.go.jp/n/finance/search/02_zyoseikigyouka_m.html'),
    { ...m(14, '男女雇用機会均等法', 'https://www.mhlw.go.jp/a.html'), programme: false },
  ]);
  const pairs = new Set(links.map((l) => `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}:${l.rule}`));
  assert.ok(pairs.has('1-2:prefixed'), 'an authority added in front, the same page');
  assert.ok(pairs.has('3-4:prefixed'), 'the full name of a short one, rounds and areas aside');
  assert.ok(pairs.has('5-6:prefixed'), 'a city added in front');
  assert.ok(![...pairs].some((p) => /^(5|6)-7:/.test(p)), 'a part at the end (a course, an expense) stays apart');
  assert.ok(!pairs.has('8-9:prefixed'), 'places that contradict each other stay apart');
  assert.ok(![...pairs].some((p) => /-10:prefixed/.test(p)), 'another page stays apart for a head of a place or a name');
  assert.ok(pairs.has('1-10:lender_head'), "the lender's name ahead joins its loan on any page (decision 0333)");
  assert.ok(pairs.has('11-12:successor'), 'X（旧Y） joins X named alone even when Y is too short a key');
  assert.ok(!pairs.has('13-14:prefixed'), 'records that are not programmes (law provisions) are not joined by a head');
  assert.ok(pairs.has('15-16:division'), 'one loan of two lending divisions');
});
