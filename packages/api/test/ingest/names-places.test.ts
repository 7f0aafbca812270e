// The ingest derivations as pure functions: name cleaning, record class,
// fiscal year, places from URLs and names, duplicate groups, readings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanProgramName, fiscalYear, recordClass } from '../../src/ingest/names.ts';
import { buildPlaceMaster, derivePlace, placeFromName, placeFromUrl } from '../../src/ingest/places.ts';
import { readingTokenizer, romaji, romajiKey } from '../../src/ingest/readings.ts';
import { assignDuplicateGroups, type DuplicateMember } from '../../src/ingest/duplicate-groups.ts';
import { compactKey, foldKana, searchNormalize } from '../../src/catalog/search-text.ts';

test('cleanProgramName: banners, site suffixes, file notes and announcement wording go; the programme name stays', () => {
  const cases: [string, string, string[]][] = [
    ['創業支援を受けたい|創業支援|東京都産業労働局', '創業支援を受けたい', ['site_suffix']],
    ['【申請受付は終了しました】中小企業省エネ設備導入補助金', '中小企業省エネ設備導入補助金', ['status_banner']],
    [
      '【募集終了】省エネルギー対応設備更新等緊急支援補助金の公募について - 愛媛県庁公式ホームページ',
      '省エネルギー対応設備更新等緊急支援補助金',
      ['status_banner', 'site_suffix', 'announce_suffix'],
    ],
    ['「中小企業等GX促進事業費補助金」の募集について（R8.4.6追記）｜徳島県ホームページ', '中小企業等GX促進事業費補助金', ['site_suffix', 'quoted_title']],
    ['デジタル技術導入等緊急支援事業費補助金交付要綱 (PDF 234KB)', 'デジタル技術導入等緊急支援事業費補助金交付要綱', ['file_note']],
    ['岐阜_農業6次産業化促進支援事業', '岐阜 農業6次産業化促進支援事業', ['separator']],
    ['京都府公衆浴場設備改善事業補助金について（令和8年度受付終了）', '京都府公衆浴場設備改善事業補助金', ['status_suffix', 'announce_suffix']],
  ];
  for (const [published, name, rules] of cases) {
    const cleaned = cleanProgramName(published);
    assert.equal(cleaned.name, name, published);
    assert.deepEqual(cleaned.rules, rules, published);
  }
  // What belongs to the name is kept.
  for (const kept of [
    'スマート農業推進事業（機械設備導入）',
    '新規就農者育成総合対策【経営開始資金】',
    'Beyond 5G(6G)基金事業 社会実装・海外展開志向型戦略的プログラム【事業戦略支援型】',
    '地理的表示 (GI) 保護制度 - 園芸作物関連',
    '省エネ・非化石転換補助金（エネルギー需要最適化型／EMS）',
    '戸籍法改正・婚姻届 電子化／ワンストップ',
  ]) {
    assert.deepEqual(cleanProgramName(kept), { name: kept, rules: [] }, kept);
  }
});

test('recordClass: programmes apart from law provisions, documents, index pages, announcements and debris', () => {
  assert.equal(recordClass('省エネ設備導入補助金', 'subsidy'), 'programme');
  assert.equal(recordClass('建築物省エネ法 第10条 省エネ基準適合義務 全建築物拡大', null), 'law_provision');
  assert.equal(recordClass('ヘイトスピーチ解消法', null), 'law_provision');
  assert.equal(recordClass('丹波市農業補助金交付要綱', 'subsidy'), 'document');
  assert.equal(recordClass('創業支援を受けたい|創業支援|東京都産業労働局', 'support'), 'index_page');
  assert.equal(recordClass('令和元年度補助金一覧', 'subsidy'), 'index_page');
  assert.equal(recordClass('補助金・助成金', 'subsidy'), 'index_page');
  assert.equal(recordClass('事業承継・M&A補助金', 'subsidy'), 'programme', 'a programme named with 補助金 is no index page');
  assert.equal(recordClass('農村起業家育成セミナー', null), 'announcement');
  assert.equal(recordClass('page top', 'support'), 'debris');
});

test('fiscalYear: 令和, R and western years in the name, else the window', () => {
  assert.equal(fiscalYear('令和7年度 先進的省エネルギー投資促進支援事業', null, null), 2025);
  assert.equal(fiscalYear('令和元年度補助金一覧', null, null), 2019);
  assert.equal(fiscalYear('令和８年度採用力強化支援企業の募集', null, null), 2026);
  assert.equal(fiscalYear('R7補正スマート農業研修', null, null), 2025);
  assert.equal(fiscalYear('給湯省エネ2026事業', null, null), null, 'a bare number is no year');
  assert.equal(fiscalYear('2026年度労働者派遣事業者', null, null), 2026);
  assert.equal(fiscalYear('何かの補助金', '2024-04-01', '2025-03-31'), 2025);
});

test('search normalisation: width, case and kana folded; compactKey ignores spaces and punctuation', () => {
  assert.equal(foldKana('スマート'), 'すまーと');
  assert.equal(searchNormalize('ＩＴ導入　ｽﾏｰﾄ'), 'it導入 すまーと');
  assert.equal(compactKey('東京都 創業助成事業'), compactKey('東京都創業助成事業'));
  assert.equal(compactKey('岐阜_農業・6次産業化（案内）'), '岐阜農業6次産業化案内');
});

test('places: local-government domains and leading place names, read against the municipality master', async () => {
  const tokenizer = await readingTokenizer();
  assert.equal(romaji('みなみそうま'), 'minamisouma');
  assert.equal(romajiKey('minamisouma'), romajiKey('minamisoma'));
  assert.equal(romajiKey('ohta'), romajiKey('oota'));
  const master = buildPlaceMaster(
    [
      { name: '南相馬市', prefecture: '福島県' },
      { name: '宇都宮市', prefecture: '栃木県' },
      { name: '府中市', prefecture: '東京都' },
      { name: '府中市', prefecture: '広島県' },
      { name: '出水市', prefecture: '鹿児島県' },
      { name: '飯綱町', prefecture: '長野県' },
    ],
    tokenizer,
  );
  assert.deepEqual(placeFromUrl('https://www.city.minamisoma.lg.jp/portal/x.html', master), { prefecture: '福島県', municipality: '南相馬市' });
  assert.deepEqual(placeFromUrl('https://www.pref.chiba.lg.jp/a.html', master), { prefecture: '千葉県', municipality: null });
  assert.deepEqual(placeFromUrl('https://www.sangyo-rodo.metro.tokyo.lg.jp/', master), { prefecture: '東京都', municipality: null });
  assert.deepEqual(placeFromUrl('https://www.town.iizuna.nagano.jp/x', master), { prefecture: '長野県', municipality: '飯綱町' });
  // 出水 reads でみず in the dictionary, not いずみ as the city does: no match, rather than a wrong one.
  assert.equal(placeFromUrl('https://www.city.kagoshima-izumi.lg.jp/', master), null);
  assert.equal(placeFromUrl('https://www.city.fuchu.lg.jp/', master), null, 'two 府中市: ambiguous');
  assert.equal(placeFromUrl('https://www.maff.go.jp/j/x.html', master), null);
  assert.equal(placeFromUrl('not a url', master), null);
  assert.deepEqual(placeFromName('福岡 スマート農業機械利用拡大推進事業', master), { prefecture: '福岡県', municipality: null });
  assert.deepEqual(placeFromName('宇都宮市 新規就農者生活資金貸付制度', master), { prefecture: '栃木県', municipality: '宇都宮市' });
  assert.deepEqual(placeFromName('千葉県先進的デジタル技術活用実証プロジェクト補助金', master), { prefecture: '千葉県', municipality: null });
  assert.equal(placeFromName('福岡型の支援', master), null, 'a short prefecture name only before a separator');
  assert.equal(placeFromName('府中市有害鳥獣被害防護柵設置支援事業', master), null, 'an ambiguous municipality name');
  const base = { prefecture: null, municipality: null, authorityLevel: null, officialUrl: null, sourceUrl: null, name: '補助金' };
  assert.deepEqual(derivePlace({ ...base, sourceUrl: 'https://www.city.minamisoma.lg.jp/' }, master), {
    prefecture: '福島県',
    municipality: '南相馬市',
    how: 'derived:official_url_domain',
  });
  assert.equal(
    derivePlace({ ...base, authorityLevel: 'national', sourceUrl: 'https://www.city.minamisoma.lg.jp/' }, master),
    null,
    'national records stay nationwide',
  );
  assert.equal(
    derivePlace({ ...base, prefecture: '栃木県', sourceUrl: 'https://www.city.minamisoma.lg.jp/' }, master),
    null,
    'a place in another prefecture is not taken',
  );
  assert.deepEqual(derivePlace({ ...base, prefecture: '栃木県', name: '宇都宮市 担い手育成金' }, master), {
    prefecture: null,
    municipality: '宇都宮市',
    how: 'derived:name_place',
  });
  assert.equal(tokenizer.reading('省エネ'), 'しょうえね');
});

test('duplicate groups: merge verdicts, same-place groups and identical names collapse; the best record leads', () => {
  const m = (pid: number, extra: Partial<DuplicateMember> = {}): DuplicateMember => ({
    pid,
    unifiedId: `U${pid}`,
    nameKey: `name${pid}`,
    prefecture: null,
    municipality: null,
    excluded: false,
    tierOrder: 2,
    coverage: 0.5,
    recordClass: 'programme',
    trustLevel: 'sourced',
    hasOfficialUrl: false,
    ...extra,
  });
  const members = [
    m(1, { nameKey: 'it導入補助金' }),
    m(2, { nameKey: 'it導入補助金', tierOrder: 1 }),
    m(3, { prefecture: '福岡県' }),
    m(4, { prefecture: '鹿児島県' }),
    m(5, { prefecture: '愛知県' }),
    m(6, { prefecture: '愛知県', excluded: true, tierOrder: 4 }),
    m(7, { nameKey: 'x', prefecture: '東京都' }),
    m(8, { nameKey: 'x', prefecture: '大阪府' }),
  ];
  const out = assignDuplicateGroups(members, [
    { unifiedIds: ['U3', 'U4'], verdict: 'keep', winnerUid: null },
    { unifiedIds: ['U5', 'U6'], verdict: 'merge', winnerUid: 'U6' },
  ]);
  assert.deepEqual(out.get(1), { group: 2, rank: 1 }, 'identical names: the better tier leads');
  assert.deepEqual(out.get(2), { group: 2, rank: 0 });
  assert.notEqual(out.get(3)!.group, out.get(4)!.group, 'a keep group of two places stays two programmes');
  assert.deepEqual(out.get(6), { group: 5, rank: 1 }, 'merged; an excluded winner does not lead');
  assert.notEqual(out.get(7)!.group, out.get(8)!.group, 'one name in two prefectures: two programmes');
});
