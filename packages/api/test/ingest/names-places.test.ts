// The ingest derivations as pure functions: name cleaning (record classes:
// classify.test.ts), fiscal year, places from URLs and names, duplicate groups, readings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanProgramName, fiscalYear } from '../../src/ingest/names.ts';
import { buildPlaceMaster, derivePlace, hostPlaces, placeFromName, placeFromUrl } from '../../src/ingest/places.ts';
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
    [
      '「中小企業等GX促進事業費補助金」の募集について（R8.4.6追記）｜徳島県ホームページ',
      '中小企業等GX促進事業費補助金',
      ['update_note', 'site_suffix', 'quoted_title'],
    ],
    ['デジタル技術導入等緊急支援事業費補助金交付要綱 (PDF 234KB)', 'デジタル技術導入等緊急支援事業費補助金交付要綱', ['file_note']],
    ['岐阜_農業6次産業化促進支援事業', '岐阜 農業6次産業化促進支援事業', ['separator']],
    [
      '15-Ⅲ 人材確保等支援助成金（建設キャリアアップシステム等活用促進コース）',
      '人材確保等支援助成金（建設キャリアアップシステム等活用促進コース）',
      ['section_number'],
    ],
    ['3-2 中小企業新事業進出補助金', '3-2 中小企業新事業進出補助金'.slice(4), ['section_number']],
    ['2025-26 年度 海外展開支援', '2025-26 年度 海外展開支援', []],
    ['京都府公衆浴場設備改善事業補助金について（令和8年度受付終了）', '京都府公衆浴場設備改善事業補助金', ['status_suffix', 'announce_suffix']],
    // Site titles with an English tail, after a bar or a slash; a site's name and section before the name.
    [
      '大阪府副業・兼業人材活用促進補助金／大阪府（おおさかふ）ホームページ [Osaka Prefectural Government]',
      '大阪府副業・兼業人材活用促進補助金',
      ['site_suffix'],
    ],
    ['あきた企業立地促進助成事業補助金 | 美の国あきたネット', 'あきた企業立地促進助成事業補助金', ['site_suffix']],
    ['東京都障害者安定雇用奨励金 | 企業向け奨励金・助成金 | TOKYOはたらくネット', '東京都障害者安定雇用奨励金', ['site_suffix']],
    ['特別高圧電力料金高騰対策補助金（第６回）/とりネット/鳥取県公式サイト', '特別高圧電力料金高騰対策補助金（第６回）', ['site_suffix']],
    ['富山県／富山県男性の育児休業取得促進補助金', '富山県男性の育児休業取得促進補助金', ['site_prefix']],
    [
      '三重県｜ものづくり産業：【終了しました】【３次募集】成長産業の技術開発を支援する補助金を公募します',
      '成長産業の技術開発を支援する補助金',
      ['status_banner', 'call_banner', 'site_prefix', 'announce_suffix'],
    ],
    // A call's label anywhere, a period that opens the name, a breadcrumb, a sentence announcing support (issue 20).
    ['山梨県省エネ・再エネ設備導入加速化事業費補助金【令和5年度募集（中小企業者分）】', '山梨県省エネ・再エネ設備導入加速化事業費補助金', ['call_banner']],
    [
      '（7/15～8/22）グローバル・スタートアップ・キャンパス構想先行国際共同研究事業人材育成（フェローシップ）プログラム【インバウンド受入機関公募】（GP-ONE）',
      'グローバル・スタートアップ・キャンパス構想先行国際共同研究事業人材育成（フェローシップ）プログラム（GP-ONE）',
      ['call_banner', 'period_note'],
    ],
    // A news date and a space before the name is the page's list; unspaced it belongs to the name (decision 0319).
    ['4月24日 ヤングケアラー・若者ケアラー支援グループ活動補助金', 'ヤングケアラー・若者ケアラー支援グループ活動補助金', ['period_note']],
    ['令和7年8月10日からの大雨に係る被災者生活再建支援金', '令和7年8月10日からの大雨に係る被災者生活再建支援金', []],
    ['優遇制度 > 未来創造産業立地促進補助金（製造業等立地支援型）', '未来創造産業立地促進補助金（製造業等立地支援型）', ['breadcrumb']],
    ['県内中小企業等による省エネルギー設備の導入を支援します。', '県内中小企業等による省エネルギー設備の導入支援', ['announce_suffix']],
    ['R>1 の条件', 'R>1 の条件', []],
    ['水田農業の高収益化の推進＜一部公共＞', '水田農業の高収益化の推進＜一部公共＞', []],
    [
      '令和8年度青森県産業DXモデル創出支援事業費補助金の募集を開始しました DX推進課 new 目的及び概要県では、',
      '令和8年度青森県産業DXモデル創出支援事業費補助金',
      ['announce_suffix'],
    ],
    ['岩手県 - 岩手県事業復興型雇用確保助成金【雇入費】（令和7年度版）', '岩手県事業復興型雇用確保助成金【雇入費】（令和7年度版）', ['site_prefix']],
    // Any banner that opens the name; announcement wording after any name; the quoted name of a description.
    ['【経産省ZEH】令和2年度 経産省によるZEH補助金', '令和2年度 経産省によるZEH補助金', ['banner']],
    [
      'トラベルワーキング活用支援事業費補助金の二次募集を開始します！ | 美の国あきたネット',
      'トラベルワーキング活用支援事業費補助金',
      ['site_suffix', 'announce_suffix'],
    ],
    ['旅の目的地となる飲食店開業支援事業補助金の受付を開始します。', '旅の目的地となる飲食店開業支援事業補助金', ['announce_suffix']],
    ['BCP（事業継続計画）について', 'BCP（事業継続計画）', ['announce_suffix']],
    [
      '【令和8年度受付開始】県外からの就職活動にかかる交通費・宿泊費を補助「宮崎県UIJターン就活応援補助金」',
      '宮崎県UIJターン就活応援補助金',
      ['status_banner', 'quoted_title'],
    ],
    [
      '三重県｜令和７年度「海外ビジネス展開支援補助金（多角化）」の公募を開始します',
      '令和７年度海外ビジネス展開支援補助金（多角化）',
      ['site_prefix', 'quoted_title'],
    ],
    [
      '（4月16日更新）福岡県介護事業所等に対するサービス継続支援事業費補助金について',
      '福岡県介護事業所等に対するサービス継続支援事業費補助金',
      ['update_note', 'announce_suffix'],
    ],
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
    '女性、若者／シニア起業家支援資金',
    'JIS B 8445/8446シリーズ（生活支援ロボット／サービスロボット 安全要求）',
    '共同研究課題募集',
    '奈良県公式ホームページ',
  ]) {
    assert.deepEqual(cleanProgramName(kept), { name: kept, rules: [] }, kept);
  }
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
      { name: '登米市', prefecture: '宮城県' },
      { name: '下野市', prefecture: '栃木県' },
      { name: '八代市', prefecture: '熊本県' },
    ],
    tokenizer,
  );
  assert.deepEqual(placeFromUrl('https://www.city.minamisoma.lg.jp/portal/x.html', master), { prefecture: '福島県', municipality: '南相馬市' });
  assert.deepEqual(placeFromUrl('https://www.pref.chiba.lg.jp/a.html', master), { prefecture: '千葉県', municipality: null });
  assert.deepEqual(placeFromUrl('https://www.sangyo-rodo.metro.tokyo.lg.jp/', master), { prefecture: '東京都', municipality: null });
  assert.deepEqual(placeFromUrl('https://www.town.iizuna.nagano.jp/x', master), { prefecture: '長野県', municipality: '飯綱町' });
  // 出水 reads でみず in the dictionary, not いずみ as the city does: no city, rather than a wrong one; the prefecture the domain names holds.
  assert.deepEqual(placeFromUrl('https://www.city.kagoshima-izumi.lg.jp/', master), { prefecture: '鹿児島県', municipality: null });
  assert.equal(placeFromUrl('https://www.city.fuchu.lg.jp/', master), null, 'two 府中市: ambiguous');
  assert.equal(placeFromUrl('https://www.maff.go.jp/j/x.html', master), null);
  assert.equal(placeFromUrl('not a url', master), null);
  assert.deepEqual(placeFromName('福岡 スマート農業機械利用拡大推進事業', master), { prefecture: '福岡県', municipality: null });
  assert.deepEqual(placeFromName('宇都宮市 新規就農者生活資金貸付制度', master), { prefecture: '栃木県', municipality: '宇都宮市' });
  assert.deepEqual(placeFromName('千葉県先進的デジタル技術活用実証プロジェクト補助金', master), { prefecture: '千葉県', municipality: null });
  assert.equal(placeFromName('福岡型の支援', master), null, 'a short prefecture name only before a separator');
  assert.equal(placeFromName('府中市有害鳥獣被害防護柵設置支援事業', master), null, 'an ambiguous municipality name');
  // Decision 0313: a place after a fiscal year, or a whole last bracket; a domain that names its prefecture keeps it.
  assert.deepEqual(placeFromName('令和7年度南相馬市ロボット機器導入促進事業補助金', master), { prefecture: '福島県', municipality: '南相馬市' });
  assert.deepEqual(placeFromName('令和7年度 宇都宮市 担い手育成金', master), { prefecture: '栃木県', municipality: '宇都宮市' });
  assert.deepEqual(placeFromName('園芸用ハウス整備事業（高知県）', master), { prefecture: '高知県', municipality: null });
  assert.deepEqual(placeFromName('新規就農者支援制度（八代市）', master), { prefecture: '熊本県', municipality: '八代市' });
  assert.deepEqual(placeFromName('人材確保等支援助成金（作業員宿舎等経費助成（石川県））', master), { prefecture: '石川県', municipality: null });
  assert.equal(placeFromName('高度化事業 (都道府県経由の長期低利融資)', master), null, 'a bracket that only mentions prefectures');
  assert.equal(placeFromName('有害鳥獣対策（府中市）', master), null, 'an ambiguous municipality in brackets');
  assert.equal(placeFromName('キオクシア 認定助成（四日市・北上）', master), null, 'a bracket that is not a place name');
  assert.deepEqual(placeFromUrl('https://www.city.tome.miyagi.jp/x.html', master)?.prefecture, '宮城県', 'the prefecture of city.tome.miyagi.jp');
  // A host the master cannot read: the municipality its records' names state, one and no other, of the host's kind.
  const hosts = hostPlaces(
    [
      { name: '下野市 下野市農業研修者受入支援事業', officialUrl: 'https://www.city.shimotsuke.lg.jp/a.html', sourceUrl: null },
      { name: '養蚕支援事業', officialUrl: 'https://www.city.shimotsuke.lg.jp/b.html', sourceUrl: null },
      { name: '令和7年度登米市畜産振興対策事業補助金', officialUrl: 'https://www.city.tome.miyagi.jp/c.html', sourceUrl: null },
      { name: '宇都宮市 担い手育成金', officialUrl: 'https://www.city.mixed.lg.jp/d.html', sourceUrl: null },
      { name: '南相馬市 担い手育成金', officialUrl: 'https://www.city.mixed.lg.jp/e.html', sourceUrl: null },
      { name: '飯綱町 補助金', officialUrl: 'https://www.city.wrongkind.lg.jp/f.html', sourceUrl: null },
      { name: '宇都宮市 補助金', officialUrl: 'https://www.maff.go.jp/g.html', sourceUrl: null },
    ],
    master,
  );
  assert.deepEqual(Object.fromEntries(hosts), {
    'www.city.shimotsuke.lg.jp': { name: '下野市', prefecture: '栃木県' },
    'www.city.tome.miyagi.jp': { name: '登米市', prefecture: '宮城県' },
  });
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
  assert.deepEqual(out.get(1), { group: 2, rank: 1, rules: ['same_name'] }, 'identical names: the better tier leads');
  assert.deepEqual(out.get(2), { group: 2, rank: 0, rules: ['same_name'] });
  assert.notEqual(out.get(3)!.group, out.get(4)!.group, 'a keep group of two places stays two programmes');
  assert.deepEqual(out.get(6), { group: 5, rank: 1, rules: ['dataset_group'] }, 'merged; an excluded winner does not lead');
  assert.deepEqual(out.get(7)!.rules, [], 'a record alone names no rule');
  assert.notEqual(out.get(7)!.group, out.get(8)!.group, 'one name in two prefectures: two programmes');
});
