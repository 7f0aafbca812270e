// Place and level from evidence (ingest/authority-level.ts): national bodies
// and domains lose a place they were given, local-government domains and
// names give theirs; then what the rule gives on the bundled catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlaceMaster } from '../../src/ingest/places.ts';
import { readingTokenizer } from '../../src/ingest/readings.ts';
import { isNationalAuthority, isNationalHost, placeAndLevel, placeFromAuthority, type LevelInput } from '../../src/ingest/authority-level.ts';
import { testCatalog } from '../helper.ts';

const base: LevelInput = {
  name: '補助金',
  authorityName: null,
  authorityLevel: null,
  prefecture: null,
  municipality: null,
  officialUrl: null,
  sourceUrl: null,
};

test('placeAndLevel: national bodies are national and nowhere, local governments are theirs, each change named', async () => {
  const master = buildPlaceMaster(
    [
      { name: '下野市', prefecture: '栃木県' },
      { name: '浜松市', prefecture: '静岡県' },
      { name: '都城市', prefecture: '宮崎県' },
      { name: '府中市', prefecture: '東京都' },
      { name: '府中市', prefecture: '広島県' },
      { name: '士別市', prefecture: '北海道' },
      { name: '伊達市', prefecture: '北海道' },
      { name: '伊達市', prefecture: '福島県' },
      { name: '鹿嶋市', prefecture: '茨城県' },
      { name: '鹿児島市', prefecture: '鹿児島県' },
    ],
    await readingTokenizer(),
  );
  assert.ok(isNationalHost('https://www.jfc.go.jp/n/finance/search/01_sinki_m.html'));
  assert.ok(isNationalHost('https://sii.or.jp/koujou06r/'));
  assert.ok(!isNationalHost('https://www.jgrants-portal.go.jp/subsidy/a0W'), 'the jGrants portal lists every level');
  assert.ok(!isNationalHost('https://www.city.hamamatsu.shizuoka.jp/'));
  assert.ok(isNationalAuthority('日本政策金融公庫 (JFC)', master));
  assert.ok(isNationalAuthority('農林水産省', master));
  assert.ok(!isNationalAuthority('熊本県 / 経済産業省', master), 'a prefecture named beside the ministry');
  assert.ok(!isNationalAuthority('長崎県庁', master));
  assert.ok(!isNationalAuthority('市町村', master));
  assert.deepEqual(placeFromAuthority('栃木県下野市', master), { prefecture: '栃木県', municipality: '下野市' });
  assert.deepEqual(placeFromAuthority('大阪府商工労働部', master), { prefecture: '大阪府', municipality: null });
  assert.deepEqual(placeFromAuthority('浜松市産業振興課', master), { prefecture: '静岡県', municipality: '浜松市' });

  // JFC's 新規開業資金 was placed in 東京都 by a contact address: national, no place.
  assert.deepEqual(
    placeAndLevel(
      {
        ...base,
        name: '新規開業資金',
        authorityName: '日本政策金融公庫',
        authorityLevel: 'national',
        prefecture: '東京都',
        sourceUrl: 'https://www.jfc.go.jp/n/finance/search/01_sinki_m.html',
      },
      master,
    ),
    { authorityLevel: 'national', prefecture: null, municipality: null, changed: { prefecture: 'derived:national_domain' } },
  );
  assert.deepEqual(placeAndLevel({ ...base, authorityName: '環境省', prefecture: '東京都', sourceUrl: 'https://example.org/shift' }, master), {
    authorityLevel: 'national',
    prefecture: null,
    municipality: null,
    changed: { authority_level: 'derived:national_authority', prefecture: 'derived:national_authority' },
  });
  // A national programme about one place keeps the place its name names.
  assert.equal(placeAndLevel({ ...base, name: '浜松市 特区支援', sourceUrl: 'https://www.mlit.go.jp/x' }, master).municipality, '浜松市');
  // A city's page on a national programme is the city's (the city is where one applies).
  assert.deepEqual(
    placeAndLevel(
      {
        ...base,
        name: '新規就農者育成総合対策(経営開始資金)',
        authorityName: '農林水産省',
        authorityLevel: 'national',
        prefecture: '宮崎県',
        sourceUrl: 'https://www.city.miyakonojo.miyazaki.jp/x',
      },
      master,
    ),
    {
      authorityLevel: 'municipality',
      prefecture: '宮崎県',
      municipality: '都城市',
      changed: { authority_level: 'derived:official_url_domain', municipality: 'derived:official_url_domain' },
    },
  );
  // A level the record has for a local government stays; its place is filled.
  assert.deepEqual(placeAndLevel({ ...base, authorityLevel: 'prefecture', sourceUrl: 'https://www.pref.shizuoka.jp/x' }, master), {
    authorityLevel: 'prefecture',
    prefecture: '静岡県',
    municipality: null,
    changed: { prefecture: 'derived:official_url_domain' },
  });
  // The administering body names the place when nothing else does.
  assert.deepEqual(placeAndLevel({ ...base, name: '乳用牛基礎雌牛導入促進事業', authorityName: '栃木県下野市' }, master), {
    authorityLevel: 'municipality',
    prefecture: '栃木県',
    municipality: '下野市',
    changed: { prefecture: 'derived:authority_place', municipality: 'derived:authority_place', authority_level: 'derived:authority_place' },
  });
  assert.deepEqual(placeAndLevel({ ...base, name: '府中市 補助金' }, master).changed, {}, 'an ambiguous name gives nothing');
  // A city's domain the master cannot read: the body or the name gives the place (issue 20).
  assert.deepEqual(
    placeAndLevel({ ...base, name: 'わな猟免許取得支援', authorityName: '栃木県下野市', officialUrl: 'https://www.city.shimotsuke.lg.jp/0056/x.html' }, master),
    {
      authorityLevel: 'municipality',
      prefecture: '栃木県',
      municipality: '下野市',
      changed: { authority_level: 'derived:official_url_domain', prefecture: 'derived:authority_place', municipality: 'derived:authority_place' },
    },
  );
  // Nothing in the record names the city: the host's other records do (places.ts#hostPlaces; decision 0313).
  const hosts = new Map([['www.city.shimotsuke.lg.jp', { name: '下野市', prefecture: '栃木県' }]]);
  assert.deepEqual(placeAndLevel({ ...base, name: '養蚕支援事業', officialUrl: 'https://www.city.shimotsuke.lg.jp/0381/x.html' }, master, hosts), {
    authorityLevel: 'municipality',
    prefecture: '栃木県',
    municipality: '下野市',
    changed: { authority_level: 'derived:official_url_domain', prefecture: 'derived:host_records', municipality: 'derived:host_records' },
  });
  // The name and the page agree on 浜松市 against a coded municipality of the same prefecture.
  assert.equal(
    placeAndLevel(
      { ...base, name: '浜松市 新規就農者支援事業', prefecture: '静岡県', municipality: '静岡市', officialUrl: 'https://www.city.hamamatsu.shizuoka.jp/x' },
      master,
    ).municipality,
    '浜松市',
  );
  // A page of one prefecture's city against a coded prefecture nothing else names: the page decides (decision 0312, amended).
  assert.deepEqual(
    placeAndLevel({ ...base, name: '士別市受入農家協議会支援助成', prefecture: '佐賀県', officialUrl: 'https://www.city.shibetsu.lg.jp/x.html' }, master),
    {
      authorityLevel: 'municipality',
      prefecture: '北海道',
      municipality: '士別市',
      changed: { authority_level: 'derived:official_url_domain', prefecture: 'derived:official_url_domain', municipality: 'derived:official_url_domain' },
    },
  );
  const date = placeAndLevel(
    { ...base, name: '伊達市農業用施設機械取得助成', authorityLevel: 'municipality', prefecture: '福島県', sourceUrl: 'https://www.city.date.hokkaido.jp/x' },
    master,
  );
  assert.deepEqual([date.prefecture, date.municipality], ['北海道', '伊達市'], 'a name of two places does not hold the coded one');
  // The name names the coded place: the link is what is wrong, the place stays.
  const kagoshima = placeAndLevel(
    { ...base, name: '鹿児島市移住支援金制度', authorityLevel: 'municipality', prefecture: '鹿児島県', sourceUrl: 'https://www.city.kashima.ibaraki.jp/x' },
    master,
  );
  assert.deepEqual([kagoshima.prefecture, kagoshima.changed.prefecture], ['鹿児島県', undefined]);
  // So does an administering body that names it.
  const body = placeAndLevel(
    { ...base, authorityName: '鹿児島県鹿児島市', authorityLevel: 'municipality', prefecture: '鹿児島県', sourceUrl: 'https://www.city.kashima.ibaraki.jp/x' },
    master,
  );
  assert.equal(body.prefecture, '鹿児島県');
});

// Measured on the bundled dataset's catalogue (programmes, not tier X).
test('catalogue: national programmes carry no prefecture unless their name names one; local-government pages carry theirs', async () => {
  const { db } = await testCatalog();
  const count = (where: string): number =>
    db.get<{ n: number }>(`SELECT count(*) AS n FROM programs WHERE tier <> 'X' AND record_class = 'programme' AND ${where}`)!.n;
  const nationalWithPlace = count("authority_level = 'national' AND prefecture IS NOT NULL");
  assert.ok(nationalWithPlace <= 40, `${nationalWithPlace} national programmes with a prefecture (their names name it)`);
  const jfc = db.get<{ prefecture: string | null; provenance: string }>(
    "SELECT prefecture, provenance FROM programs WHERE primary_name = '新規開業資金' AND source_url LIKE '%jfc.go.jp%'",
  );
  if (jfc) assert.equal(jfc.prefecture, null, 'JFC 新規開業資金: nationwide');
  // Decision 0333: a place's page of a national programme, named as the national record is, is that programme (法人版事業承継税制
  // was served once nationwide and once in 佐賀県); the programme is the national record.
  const pages = db.all<{ prefecture: string | null; canonical: string | null; canonicalPrefecture: string | null }>(
    `SELECT p.prefecture, p.canonical_id AS canonical, c.prefecture AS canonicalPrefecture FROM programs p
       LEFT JOIN programs c ON c.unified_id = p.canonical_id WHERE p.primary_name = '法人版事業承継税制'`,
  );
  assert.ok(
    pages.some((r) => r.prefecture === '佐賀県'),
    'the 佐賀県 record is there, fetchable by its id',
  );
  assert.deepEqual(
    pages.filter((r) => r.canonical === null).map((r) => r.prefecture),
    [null],
    'one programme, nationwide',
  );
  assert.ok(pages.every((r) => r.canonical === null || r.canonicalPrefecture === null));
  const localWithout = count(
    "prefecture IS NULL AND (source_url LIKE '%.lg.jp%' OR source_url LIKE '%//www.pref.%' OR source_url LIKE '%//www.city.%' OR source_url LIKE '%//www.town.%')",
  );
  assert.ok(localWithout <= 150, `${localWithout} programmes on local-government sites without a prefecture`);
  // Decision 0313: local-government records carry their prefecture (52 served without one before), and municipal ones
  // their municipality (236 before: host records, a prefecture the domain names, a place after a fiscal year or in brackets).
  const localLevelWithout = count("authority_level IN ('prefecture', 'municipality') AND prefecture IS NULL AND canonical_id IS NULL");
  assert.ok(localLevelWithout <= 10, `${localLevelWithout} local-government programmes without a prefecture`);
  // Decision 0312 (amended): a city's page decides a prefecture the dataset coded otherwise when nothing else names it.
  const corrected = count(`provenance LIKE '%"prefecture":"derived:official_url_domain"%' AND authority_level = 'municipality'`);
  assert.ok(corrected > 0, 'prefectures corrected or filled from city pages');
  const municipalWithout = count("authority_level = 'municipality' AND municipality IS NULL AND canonical_id IS NULL");
  assert.ok(municipalWithout <= 100, `${municipalWithout} municipal programmes without a municipality`);
  const derivedLevel = count(`provenance LIKE '%"authority_level":"derived:%'`);
  assert.ok(derivedLevel >= 2000, `${derivedLevel} levels derived`);
  const removed = count(`prefecture IS NULL AND provenance LIKE '%"prefecture":"derived:national_%'`);
  assert.ok(removed >= 50 && removed <= 400, `${removed} places removed from national programmes`);
});
