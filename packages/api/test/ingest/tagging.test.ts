// Purposes, audiences and industries at ingest (ingest/tagging.ts): the rules
// as pure functions, then what they give on the bundled dataset's catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AUDIENCE_TERMS, INDUSTRY_CODES, PURPOSE_TERMS } from '@jp-support/vocab';
import { tagProgramme } from '../../src/ingest/tagging.ts';
import { testCatalog } from '../helper.ts';
import { taggingInput } from './tagging-input.ts';

const input = taggingInput;

test('values a record publishes are kept, in the terms of the vocabulary', () => {
  const t = tagProgramme(
    input({ name: '省エネ設備導入補助金', fundingPurpose: ['equipment', '環境対応'], targetTypes: ['sole_proprietor', 'corporation'], jsicMajors: ['E'] }),
  );
  assert.deepEqual(t.purposes, { values: ['設備投資', '省エネ・脱炭素'], how: 'mapped:vocabulary' });
  assert.deepEqual(t.audiences, { values: ['個人事業主', '法人'], how: 'mapped:vocabulary' });
  assert.deepEqual(t.industries, { values: ['E'], how: null }, 'already a code: untouched');
  // jGrants' employee band and use-purpose sentences.
  const j = tagProgramme(input({ name: 'x', fundingPurpose: ['販路拡大・海外展開をしたい'], targetTypes: ['employees_le_20'] }));
  assert.deepEqual(j.purposes.values, ['販路開拓', '海外展開']);
  assert.deepEqual(j.audiences.values, ['小規模事業者']);
});

test('an empty field is filled from the name, the kind, the body and the purposes, naming the rules', () => {
  const it = tagProgramme(input({ name: 'IT導入補助金', programKind: 'subsidy' }));
  assert.deepEqual(it.purposes, { values: ['IT・DX'], how: 'derived:tagging:name' });
  assert.deepEqual(it.audiences, { values: ['中小企業'], how: 'derived:tagging:purpose' }, 'a business purpose: firms');
  assert.deepEqual(it.industries, { values: [], how: null }, 'IT is what the programme is about, not an industry it is limited to');

  const jfc = tagProgramme(input({ name: '新規開業資金', programKind: 'loan', authorityName: '日本政策金融公庫' }));
  assert.deepEqual(jfc.purposes, { values: ['創業', '資金繰り'], how: 'derived:tagging:name' }, '開業 and 資金 in the name');
  const kinds = tagProgramme(input({ name: '省エネ推進事業', programKind: 'loan' }));
  assert.deepEqual(kinds.purposes, { values: ['省エネ・脱炭素', '資金繰り'], how: 'derived:tagging:name+kind' });
  assert.deepEqual(jfc.audiences.values, ['創業予定者']);

  const loan = tagProgramme(input({ name: 'マル経融資', programKind: 'loan' }));
  assert.deepEqual(loan.purposes.values, ['資金繰り']);
  assert.equal(loan.audiences.how, 'derived:tagging:kind');
  assert.deepEqual(loan.audiences.values, ['中小企業', '個人事業主']);

  const jst = tagProgramme(input({ name: '創発的研究支援事業', programKind: null, authorityName: '国立研究開発法人 科学技術振興機構 (JST)' }));
  assert.ok(jst.purposes.values.includes('研究開発'));
  assert.deepEqual(jst.audiences, { values: ['大学・研究機関'], how: 'derived:tagging:authority' });

  const farm = tagProgramme(input({ name: '和歌山 次世代につなぐ果樹産地づくり事業', fundingPurpose: ['設備投資'] }));
  assert.deepEqual(farm.audiences, { values: ['農林漁業者'], how: 'derived:tagging:purpose' }, 'the farm purpose its name names decides the applicant');
  assert.deepEqual(farm.industries, { values: ['A'], how: 'derived:tagging:name' });

  const shuno = tagProgramme(input({ name: '新規就農者育成総合対策【経営開始資金】' }));
  assert.ok(shuno.purposes.values.includes('新規就農'));
  assert.ok(shuno.audiences.values.includes('新規就農者'));

  const byUrl = tagProgramme(input({ name: '支援事業', url: 'https://www.city.example.lg.jp/soshiki/nougyou/1.html' }));
  assert.deepEqual(byUrl.purposes, { values: ['農林水産業'], how: 'derived:tagging:url' });

  const nothing = tagProgramme(input({ name: '企画調整G' }));
  assert.deepEqual(nothing.purposes, { values: [], how: null });
});

test('a record that names people as its beneficiaries and no firm is for residents, whatever its kind or body', () => {
  // A consultation's kind and 厚生労働省 imply firms; a DV centre, a spouse deduction and a welfare loan serve people.
  const dv = tagProgramme(input({ name: '配偶者暴力相談支援センター', programKind: 'consultation' }));
  assert.deepEqual(dv.audiences.values, ['住民'], 'its people purpose (子育て・福祉) names its applicants, not its kind');
  assert.deepEqual(dv.purposes, { values: ['子育て・福祉'], how: 'derived:tagging:people' }, '相談 is not 経営改善 for people');
  const line = tagProgramme(input({ name: '女性相談支援センター', programKind: 'consultation', authorityName: '厚生労働省' }));
  assert.deepEqual(line.audiences.values, ['住民']);
  assert.ok(!line.purposes.values.includes('働き方改革'), 'bare 女性 is not a workplace purpose');
  const tax = tagProgramme(input({ name: '配偶者控除', programKind: 'tax_measure' }));
  assert.deepEqual(tax.audiences, { values: ['住民'], how: 'derived:tagging:people' });
  assert.deepEqual(tax.purposes.values, ['税負担軽減']);
  const loan = tagProgramme(input({ name: '母子父子寡婦福祉資金貸付金', programKind: 'loan' }));
  assert.deepEqual(loan.audiences.values, ['住民']);

  // A firm, a firm's purpose or an employer's word named beside the people keeps the firms.
  const employer = tagProgramme(input({ name: '東京都難病・がん患者就業支援奨励金', programKind: 'subsidy' }));
  assert.deepEqual(employer.audiences.values, ['中小企業'], 'a hiring purpose: the employer applies');
  const leave = tagProgramme(input({ name: '両立支援等助成金 出生時両立支援コース', programKind: 'subsidy', authorityName: '厚生労働省' }));
  assert.ok(leave.purposes.values.includes('働き方改革'));
  const women = tagProgramme(input({ name: '女性活躍推進補助金', programKind: 'subsidy', authorityName: '静岡県経済産業部' }));
  assert.deepEqual(women.audiences.values, ['中小企業'], 'bare 女性 names no beneficiary');
  const moving = tagProgramme(input({ name: '弘前市移住支援金', programKind: 'subsidy' }));
  assert.deepEqual(moving.audiences.values, ['住民'], 'a resettlement grant pays the one who moves, not a group');
  const movingFirm = tagProgramme(input({ name: '山武市 移住支援金対象法人の募集', programKind: 'subsidy' }));
  assert.deepEqual(movingFirm.audiences.values, ['中小企業'], 'the firms that hire the movers');
  const sole = tagProgramme(input({ name: '個人版事業承継税制', programKind: 'tax_measure' }));
  assert.deepEqual(sole.audiences.values, ['中小企業']);
});

test('a grant to researchers is for universities and institutes; a firm R&D subsidy stays with firms', () => {
  const foundation = tagProgramme(input({ name: '稲盛財団 稲盛研究助成', programKind: 'grant' }));
  assert.deepEqual(foundation.audiences, { values: ['大学・研究機関'], how: 'derived:tagging:research' });
  const amed = tagProgramme(input({ name: 'AMED 難治性疾患実用化研究事業' }));
  assert.deepEqual(amed.audiences.values, ['大学・研究機関']);
  const firm = tagProgramme(input({ name: '新あいち創造研究開発補助金', programKind: 'subsidy' }));
  assert.deepEqual(firm.audiences.values, ['中小企業'], 'a research-and-development subsidy names no researcher');
  const tax = tagProgramme(input({ name: '研究開発税制(試験研究費の税額控除)', programKind: 'tax_measure' }));
  assert.deepEqual(tax.audiences.values, ['中小企業'], 'a tax measure on research costs is for the firms that pay the tax');
  const named = tagProgramme(input({ name: 'あきた中小企業みらい応援ファンド（共同研究助成事業）', programKind: 'grant' }));
  assert.deepEqual(named.audiences.values, ['中小企業'], 'the applicant it names wins');
});

test("an industry comes from the applicant's trade, not from the lender that names the support", () => {
  const jfc = tagProgramme(input({ name: '日本政策金融公庫 事業承継・集約・活性化支援資金（中小企業事業）', programKind: 'loan' }));
  assert.deepEqual(jfc.industries, { values: [], how: null });
  const bank = tagProgramme(input({ name: '三井住友銀行 農業ビジネスファンド' }));
  assert.deepEqual(bank.industries.values, ['A'], 'the farms it invests in, not the bank');
  const loan = tagProgramme(input({ name: '川越市中小企業事業資金融資', programKind: 'loan' }));
  assert.deepEqual(loan.industries.values, [], '資金融資 holds 金融 across its two words');
});

test("a worker's care of a family member (介護休業, 介護離職) is every employer's matter, not the care trade's (decision 0329, amended)", () => {
  assert.deepEqual(tagProgramme(input({ name: '両立支援等助成金（介護離職防止支援コース）' })).industries.values, []);
  assert.deepEqual(tagProgramme(input({ name: '介護事業所の人材確保支援補助金' })).industries.values, ['P'], 'a care provider is');
});

test("a shopping street's programme is its association's; one for a shop opening in it is the shopkeeper's (decision 0334, amended)", () => {
  assert.deepEqual(tagProgramme(input({ name: '大阪府商店街活性化補助金' })).audiences, { values: ['団体・組合'], how: 'derived:tagging:shopping_street' });
  assert.ok(!tagProgramme(input({ name: '横浜市商店街空き店舗開業助成' })).audiences.values.includes('団体・組合'), 'a shop opening');
});

test("a national body's 交付金 is the state's grant to local governments; a producer's or a direct payment is not (decision 0334)", () => {
  const national = (name: string) => tagProgramme(input({ name, authorityLevel: 'national' })).audiences;
  assert.deepEqual(national('地域脱炭素推進交付金'), { values: ['地方公共団体'], how: 'derived:tagging:state_grant' });
  assert.deepEqual(national('デジタル田園都市国家構想交付金（デジタル実装タイプ）').values, ['地方公共団体']);
  assert.ok(!national('環境保全型農業直接支払交付金').values.includes('地方公共団体'), 'a direct payment to farmers');
  assert.ok(!national('肉用牛肥育経営安定交付金（牛マルキン）').values.includes('地方公共団体'), "a producer's price payment");
  const local = tagProgramme(input({ name: '能登創造的復興支援交付金', authorityLevel: 'prefecture' })).audiences;
  assert.ok(!local.values.includes('地方公共団体'), "a prefecture's own 交付金 pays whom it names");
});

// Measured on the bundled dataset: 94.0% of the programmes (record class programme, not tier X: 8,147 of 8,667)
// have a purpose and an audience; the issue asks for 90%. Purposes are derived for 8,106 of them, audiences
// for 7,578, industries for 3,686 (the rest publish theirs, or serve every industry).
const MIN_TAGGED_SHARE = 0.93;

test('catalogue: programmes carry purposes and audiences of the vocabulary; each derived field names its rules', async () => {
  const { db } = await testCatalog();
  const rows = db.all<{ funding_purpose: string; target_types: string; jsic_majors: string; provenance: string }>(
    "SELECT funding_purpose, target_types, jsic_majors, provenance FROM programs WHERE excluded = 0 AND tier <> 'X' AND record_class = 'programme'",
  );
  assert.ok(rows.length > 8000);
  let tagged = 0;
  const derived = { funding_purpose: 0, target_types: 0, jsic_majors: 0 };
  for (const r of rows) {
    const purposes = JSON.parse(r.funding_purpose) as string[];
    const audiences = JSON.parse(r.target_types) as string[];
    const industries = JSON.parse(r.jsic_majors) as string[];
    for (const p of purposes) assert.ok(PURPOSE_TERMS.includes(p), `purpose ${p} is a vocabulary term`);
    for (const a of audiences) assert.ok(AUDIENCE_TERMS.includes(a), `audience ${a} is a vocabulary term`);
    for (const i of industries) assert.ok(INDUSTRY_CODES.includes(i), `industry ${i} is a JSIC major`);
    if (purposes.length > 0 && audiences.length > 0) tagged++;
    const provenance = JSON.parse(r.provenance) as Record<string, string>;
    for (const field of ['funding_purpose', 'target_types', 'jsic_majors'] as const) {
      if (provenance[field]?.startsWith('derived:tagging:')) {
        derived[field]++;
        assert.match(
          provenance[field],
          /^derived:tagging:(name|kind|authority|purpose|audience|url|business_words|care_provider|people|research|household|every_trade|state_grant|shopping_street)(\+(name|kind|authority|purpose|audience|url|business_words|care_provider|people|research|household|every_trade|state_grant|shopping_street))*$/,
        );
      }
    }
  }
  const share = tagged / rows.length;
  assert.ok(share >= MIN_TAGGED_SHARE, `${(share * 100).toFixed(1)}% of programmes have a purpose and an audience`);
  assert.ok(derived.funding_purpose > 7500 && derived.funding_purpose < 9000, `derived purposes: ${derived.funding_purpose}`);
  assert.ok(derived.target_types > 7000 && derived.target_types < 8600, `derived audiences: ${derived.target_types}`);
  assert.ok(derived.jsic_majors > 3000 && derived.jsic_majors < 5000, `derived industries: ${derived.jsic_majors}`);
});

test('育成 is 人材育成 only when people are grown (decision 0317)', () => {
  const farm = tagProgramme(input({ name: '埼玉 シャインと輝く果樹産地育成事業', programKind: 'subsidy' }));
  assert.deepEqual(farm.purposes.values, ['農林水産業'], 'a production area is grown, not staff');
  assert.deepEqual(farm.audiences.values, ['農林漁業者']);
  for (const name of ['農業担い手育成事業', '新規就農者等育成支援事業', '農業就業者確保育成対策事業', 'デジタル人材等育成支援補助金']) {
    assert.ok(tagProgramme(input({ name })).purposes.values.includes('人材育成'), `${name}: people are grown`);
  }
  const alone = tagProgramme(input({ name: '基盤技術産業育成支援助成金' }));
  assert.deepEqual(alone.purposes.values, ['人材育成'], 'no other purpose named: kept, an empty purpose is no better');
});

test('mis-rules of decision 0308: リース is no industry, 外国 alone is not 海外展開, 耕種 is farming, an employer is no resident', () => {
  const lease = tagProgramme(input({ name: '別海町 リース料助成', programKind: 'subsidy' }));
  assert.ok(!lease.industries.values.includes('K'), 'a lease pays for machines; it is not the leasing trade');
  assert.deepEqual(tagProgramme(input({ name: '東京都フリースクール等利用者等支援事業' })).industries.values, [], 'リース inside フリースクール');
  const workers = tagProgramme(input({ name: '外国人材定着総合支援補助金制度', programKind: 'subsidy' }));
  assert.ok(!workers.purposes.values.includes('海外展開'), 'foreign workers hired at home');
  assert.ok(workers.purposes.values.includes('雇用・人材確保'));
  assert.deepEqual(tagProgramme(input({ name: '外国人材の活用支援' })).purposes.values, ['雇用・人材確保'], '外国人材 are hired');
  assert.ok(!tagProgramme(input({ name: '外国税額控除（法人税）', programKind: 'tax_measure' })).purposes.values.includes('海外展開'));
  for (const name of ['中小企業等外国出願支援事業', '知財戦略導入助成事業(外国意匠・商標)', '海外展開支援（外国市場開拓）', '外国人旅行者向け販売促進']) {
    assert.ok(tagProgramme(input({ name })).purposes.values.includes('海外展開'), `${name}: selling or protecting abroad`);
  }
  const crops = tagProgramme(input({ name: '鹿屋市耕種生産パワーアップ事業', programKind: 'subsidy' }));
  assert.ok(crops.purposes.values.includes('農林水産業'));
  assert.deepEqual(crops.audiences.values, ['農林漁業者']);
  assert.deepEqual(crops.industries.values, ['A']);
  const employer = tagProgramme(input({ name: '障害者雇用報奨金', programKind: 'grant' }));
  assert.ok(!employer.audiences.values.includes('住民'), `an employer's grant: ${employer.audiences.values}`);
  assert.deepEqual(employer.audiences.values, ['中小企業']);
  assert.deepEqual(tagProgramme(input({ name: '高齢者雇用開発助成金' })).audiences.values, ['中小企業'], 'employing older people');
  assert.deepEqual(tagProgramme(input({ name: 'ひとり親家庭等日常生活支援事業' })).audiences.values, ['住民'], 'people named and no employer');
});

test('a bracket that widens who may apply (…も対象, …含む) does not tag the record (decision 0383)', () => {
  const t = tagProgramme(input({ name: '事業承継・引継ぎ補助金（農業者も対象）' }));
  assert.deepEqual(t.industries.values, [], 'not a farmers’ programme');
  assert.ok(!t.audiences.values.includes('農林漁業者'), `audiences ${t.audiences.values}`);
  assert.ok(t.purposes.values.includes('事業承継'));
  assert.ok(tagProgramme(input({ name: '農業者向け事業承継補助金' })).industries.values.includes('A'), 'a name that is for farmers still says so');
});

test('産地 is farming, except the 産地 of a traditional craft (decision 0383)', () => {
  const craft = tagProgramme(input({ name: '令和8年度京都府伝統産業産地支援事業費補助金' }));
  assert.ok(!craft.purposes.values.includes('農林水産業'), `purposes ${craft.purposes.values}`);
  assert.deepEqual(craft.industries.values, []);
  assert.ok(tagProgramme(input({ name: '果樹産地構造改革計画支援事業' })).purposes.values.includes('農林水産業'));
  assert.ok(tagProgramme(input({ name: '伝統野菜等作付拡大支援事業奨励金' })).purposes.values.includes('農林水産業'), 'a farm word beside 伝統');
});

test("a household's programme is for residents: a given business audience is set aside, a kind's or a body's is not taken (decision 0328)", () => {
  // The dataset's generic corporation / sole_proprietor pair on a home's programme: contradicted, derived instead.
  const vacant = tagProgramme(input({ name: '空き家改修事業補助金', programKind: 'subsidy', targetTypes: ['sole_proprietor'] }));
  assert.deepEqual(vacant.audiences, { values: ['住民'], how: 'derived:tagging:household+purpose' });
  // A home's tax credit: a tax measure's firms are not its applicants, the tax and loan purposes beside 住宅 notwithstanding.
  const loan = tagProgramme(input({ name: '住宅ローン減税', programKind: 'tax_measure' }));
  assert.deepEqual(loan.purposes.values, ['住宅', '税負担軽減']);
  assert.deepEqual(loan.audiences.values, ['住民']);
  assert.deepEqual(tagProgramme(input({ name: '給湯省エネ2026事業', programKind: 'subsidy' })).audiences.values, ['住民'], 'a water heater is a home');
  // Where a firm is named, the given audience stands, and so do the firms of a kind or a trade.
  const builder = tagProgramme(input({ name: '地域貢献中小企業支援事業（エコ型住宅建設促進事業）補助金', targetTypes: ['corporation'] }));
  assert.deepEqual(builder.audiences, { values: ['法人'], how: 'mapped:vocabulary' });
  assert.deepEqual(tagProgramme(input({ name: '認定家賃債務保証業者制度', programKind: 'guarantee' })).audiences.values, ['中小企業'], '保証業者: a firm');
  assert.ok(
    tagProgramme(input({ name: '福祉増進資金（生活衛生貸付）', programKind: 'loan' })).audiences.values.includes('中小企業'),
    '生活衛生 names the trades JFC lends to',
  );
  // 就業者 and 従業者 are workers, not firms: 業者 is a business word only on its own.
  assert.equal(
    tagProgramme(input({ name: '新規就業者研修支援事業' })).audiences.how,
    'derived:tagging:purpose',
    'the training purpose speaks, not a business word',
  );
  assert.equal(tagProgramme(input({ name: '保証業者登録支援' })).audiences.how, 'derived:tagging:business_words');
  // A labour body's 助成金 pays the employer, its 手当 the person.
  const assist = tagProgramme(
    input({ name: '障害者介助等助成金', authorityName: '厚生労働省', programKind: 'grant', targetTypes: ['corporation', 'sole_proprietor'] }),
  );
  assert.deepEqual(assist.audiences.values, ['法人', '個人事業主']);
  const allowance = tagProgramme(input({ name: '特別障害者手当', authorityName: '厚生労働省', programKind: 'grant', targetTypes: ['sole_proprietor'] }));
  assert.deepEqual(allowance.audiences.values, ['住民']);
  // 福祉医療機構 lends to care and medical providers.
  assert.deepEqual(tagProgramme(input({ name: '福祉医療機構(WAM)医療貸付事業 通常融資', programKind: 'loan' })).audiences.values, ['医療・福祉事業者']);
});

test("a 助成金 in courses is an employer's subsidy; a firm's or a medical facility's programme is theirs, not the people it names (decision 0326)", () => {
  for (const name of [
    '両立支援等助成金（介護離職防止支援コース）',
    '両立支援等助成金 不妊治療及び女性の健康課題対応両立支援コース',
    'キャリアアップ助成金（障害者正社員化コース）',
  ]) {
    assert.deepEqual(tagProgramme(input({ name, programKind: 'subsidy' })).audiences.values, ['中小企業'], name);
  }
  // The workers and job seekers it names are whom the employer hires, not its applicants.
  for (const name of ['特定求職者雇用開発助成金（特定就職困難者コース）', '人材開発支援助成金（建設労働者認定訓練コース）']) {
    assert.ok(!tagProgramme(input({ name, programKind: 'subsidy' })).audiences.values.includes('労働者・求職者'), name);
  }
  // Without courses and without a labour body, a 助成金 for people stays theirs; a training course for people stays theirs.
  assert.deepEqual(tagProgramme(input({ name: '不妊治療費助成金', programKind: 'grant' })).audiences.values, ['住民']);
  assert.ok(tagProgramme(input({ name: '求職者支援訓練（基礎コース）', programKind: 'training' })).audiences.values.includes('労働者・求職者'));
  // A firm named beside people only: the people are whom it serves or hires.
  assert.deepEqual(tagProgramme(input({ name: '広島県仕事と家庭の両立支援企業登録制度' })).audiences.values, ['中小企業']);
  assert.deepEqual(tagProgramme(input({ name: '商店街若者・女性新規出店チャレンジ応援事業補助金' })).audiences.values, ['中小企業']);
  // A medical facility's programme is its operator's.
  for (const name of ['医療施設等耐震整備事業', '医療DX推進体制整備加算(診療報酬)']) {
    assert.deepEqual(tagProgramme(input({ name })).audiences.values, ['医療・福祉事業者'], name);
  }
  assert.deepEqual(tagProgramme(input({ name: '子ども医療費助成' })).audiences.values, ['住民'], "a patient's medical costs stay a resident's");
  // A firm's purpose beside a people's one, no people named: a firm applies, a care provider for care.
  assert.deepEqual(tagProgramme(input({ name: '介護人材確保・職場環境改善等事業費補助金' })).audiences.values, ['医療・福祉事業者']);
  assert.deepEqual(tagProgramme(input({ name: '障害福祉従事者処遇改善緊急支援事業' })).audiences.values, ['医療・福祉事業者']);
  assert.deepEqual(tagProgramme(input({ name: '先進的な資源循環投資促進事業' })).audiences.values, ['中小企業']);
  // A home's purpose, an employer, or a household's word for a thing keep the people's reading.
  assert.deepEqual(tagProgramme(input({ name: '生ごみ処理機器購入補助金' })).audiences.values, ['住民']);
  assert.deepEqual(tagProgramme(input({ name: '福島県住宅用太陽光発電設備等導入支援補助金' })).audiences.values, ['住民']);
  assert.deepEqual(tagProgramme(input({ name: '障害者雇用調整金' })).audiences.values, ['中小企業']);
});

test('the programmes for every trade (ものづくり補助金, 持続化補助金, 省力化投資補助金, 工場・事業場) name no industry, whatever the dataset gives (decision 0329)', () => {
  const monozukuri = tagProgramme(input({ name: 'ものづくり補助金（一般型）', jsicMajors: ['E'] }));
  assert.deepEqual(monozukuri.industries, { values: [], how: 'derived:tagging:every_trade' });
  assert.deepEqual(tagProgramme(input({ name: '小規模事業者持続化補助金（創業型）', jsicMajors: ['E'] })).industries.values, []);
  assert.deepEqual(tagProgramme(input({ name: '省エネ・非化石転換補助金（工場・事業場型）' })).industries.values, [], '工場・事業場: any workplace');
  // Its farm version is still the farms'; a maker's programme is still the makers'.
  assert.deepEqual(tagProgramme(input({ name: 'ものづくり・商業・サービス生産性向上促進補助金（農業者向け設備投資）', jsicMajors: ['E'] })).industries.values, [
    'A',
  ]);
  assert.deepEqual(tagProgramme(input({ name: '静岡県ものづくり中小企業支援補助金' })).industries.values, ['E']);
  assert.deepEqual(tagProgramme(input({ name: '工場の省エネ設備導入補助金' })).industries.values, ['E']);
});
