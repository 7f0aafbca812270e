// What a record is (src/ingest/classify.ts), measured on the hand-labelled
// sample test/fixtures/labelled_records.jsonl (labelled by reading each
// record before the rules were tuned; about a third is held out and was never
// used to tune them; see labelled_records.md): the precision and recall of
// "programme" on the whole sample, with the tuned and held-out parts reported
// apart. Then what ingest does with the class: non-programmes are tier X with
// their class as the reason, reachable by id and with include_excluded, never
// on a default page; `program_kind` holds one vocabulary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { BUNDLED_DATASET_DIR } from '../../src/config.ts';
import {
  classifyRecord,
  normaliseKind,
  PROGRAM_KINDS,
  readClassOverrides,
  RECORD_CLASSES,
  withClassExclusion,
  type RecordClass,
} from '../../src/ingest/classify.ts';
import { cleanProgramName } from '../../src/ingest/names.ts';
import { body, build, tempDir, testCatalog } from '../helper.ts';

interface Labelled {
  unified_id: string;
  name: string;
  label: RecordClass;
  reason: string;
  /** `fresh`: a second held-out part, labelled later; `check`: a held-out draw of served records (labelled_records.md). */
  split: 'tune' | 'holdout' | 'fresh' | 'check';
  /** `served`, `served2`, `served3`, `served5` … `served8`: random draws of served records, labelled as tuning data; `served4` (decision 0305), `served9` (decision 0306), `served10` (decision 0307), `served12`, `served15`, `served17` and `served18` (issue 20): held out. */
  part:
    | 'uniform'
    | 'hard'
    | 'fresh'
    | 'served'
    | 'served2'
    | 'served3'
    | 'served4'
    | 'served5'
    | 'served6'
    | 'served7'
    | 'served8'
    | 'served9'
    | 'served10'
    | 'served11'
    | 'served12'
    | 'served13'
    | 'served14'
    | 'served15'
    | 'served16'
    | 'served17'
    | 'served18';
}

const LABELLED: Labelled[] = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'labelled_records.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Labelled);

interface RawRecord {
  unified_id: string;
  primary_name: string;
  program_kind?: string | null;
  official_url?: string | null;
  source_url?: string | null;
}

function datasetRecords(ids: ReadonlySet<string>): Map<string, RawRecord> {
  const out = new Map<string, RawRecord>();
  const text = gunzipSync(readFileSync(path.join(BUNDLED_DATASET_DIR, 'programs.jsonl.gz'))).toString('utf8');
  for (const line of text.split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as RawRecord;
    if (ids.has(r.unified_id)) out.set(r.unified_id, r);
  }
  return out;
}

const classify = (r: RawRecord, overrides = readClassOverrides()) =>
  classifyRecord(
    {
      unified_id: r.unified_id,
      publishedName: r.primary_name,
      name: cleanProgramName(r.primary_name).name,
      programKind: r.program_kind,
      officialUrl: r.official_url,
      sourceUrl: r.source_url,
    },
    overrides,
  );

/** The class the rules give a name (with its upstream kind and URL): the rules' tests below read it. */
const cls = (publishedName: string, programKind: string | null = null, officialUrl: string | null = null) =>
  classifyRecord({ unified_id: 'UNI-x', publishedName, name: cleanProgramName(publishedName).name, programKind, officialUrl }).recordClass;

test('the labelled sample: at least 300 records, every label a known class with its reason, about a third of the first draw held out, a fresh held-out draw of 100 or more, eleven served tuning draws, seven held-out served draws', () => {
  assert.ok(LABELLED.length >= 300, `${LABELLED.length} labelled records`);
  assert.equal(new Set(LABELLED.map((l) => l.unified_id)).size, LABELLED.length, 'each record once');
  for (const l of LABELLED) {
    assert.ok((RECORD_CLASSES as readonly string[]).includes(l.label), `${l.unified_id}: ${l.label}`);
    assert.ok(l.reason.trim().length >= 8, `${l.unified_id}: a reason`);
    assert.ok(l.split === 'tune' || l.split === 'holdout' || l.split === 'fresh' || l.split === 'check', l.unified_id);
  }
  const first = LABELLED.filter((l) => l.part === 'uniform' || l.part === 'hard');
  const held = first.filter((l) => l.split === 'holdout').length / first.length;
  assert.ok(held > 0.28 && held < 0.4, `held out: ${held}`);
  assert.ok(LABELLED.filter((l) => l.label !== 'programme').length >= 60, 'enough non-programmes to measure precision');
  assert.ok(LABELLED.filter((l) => l.split === 'fresh').length >= 100, 'a fresh held-out draw');
  const served = LABELLED.filter((l) => ['served', 'served2', 'served3', 'served5', 'served6', 'served7', 'served8'].includes(l.part));
  assert.ok(served.length >= 2500, 'seven served tuning draws');
  assert.ok(
    served.every((l) => l.split === 'tune'),
    'the served draws are tuning data',
  );
  assert.ok(LABELLED.filter((l) => l.split === 'check').length >= 300, 'a held-out served draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served9' && l.split === 'check').length >= 150, 'a second held-out served draw, after the evidence rule (0306)');
  assert.ok(
    LABELLED.filter((l) => l.part === 'served10' && l.split === 'check').length >= 150,
    'a third held-out served draw, after the per-source rule (0307)',
  );
  assert.ok(LABELLED.filter((l) => l.part === 'served11' && l.split === 'tune').length >= 200, 'an eighth served tuning draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served12' && l.split === 'check').length >= 100, 'a fourth held-out served draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served13' && l.split === 'tune').length >= 200, 'a ninth served tuning draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served14' && l.split === 'tune').length >= 200, 'a tenth served tuning draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served15' && l.split === 'check').length >= 150, 'a fifth held-out served draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served16' && l.split === 'tune').length >= 200, 'an eleventh served tuning draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served17' && l.split === 'check').length >= 200, 'a sixth held-out served draw');
  assert.ok(LABELLED.filter((l) => l.part === 'served18' && l.split === 'check').length >= 200, 'a seventh held-out served draw');
});

// The floor holds on the first draw (tuned and held out) and on the served tuning draw; the fresh held-out
// draw is reported beside them, and held-out precision is below the goal (docs/data.md has the figures).
test('classifier on the labelled sample: precision of "programme" >= 0.97 and recall >= 0.95 on the first draw; every part reported', (t) => {
  const records = datasetRecords(new Set(LABELLED.map((l) => l.unified_id)));
  const overrides = readClassOverrides();
  const score = (rows: Labelled[]) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let sameClass = 0;
    for (const l of rows) {
      const got = classify(records.get(l.unified_id)!, overrides).recordClass;
      const p = got === 'programme';
      const truth = l.label === 'programme';
      if (p && truth) tp++;
      else if (p) fp++;
      else if (truth) fn++;
      if (got === l.label) sameClass++;
    }
    return { precision: tp / (tp + fp), recall: tp / (tp + fn), classAgreement: sameClass / rows.length, n: rows.length };
  };
  const parts = {
    'first draw': score(LABELLED.filter((l) => l.part === 'uniform' || l.part === 'hard')),
    'all labelled': score(LABELLED),
    'tuned part of the first draw': score(LABELLED.filter((l) => l.split === 'tune' && (l.part === 'uniform' || l.part === 'hard'))),
    'served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served')),
    'second served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served2')),
    'third served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served3')),
    'fourth served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served5')),
    'fifth served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served6')),
    'sixth served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served7')),
    'seventh served draw (tuning, 0305)': score(LABELLED.filter((l) => l.part === 'served8')),
    'all tuning data': score(LABELLED.filter((l) => l.split === 'tune')),
    'held out': score(LABELLED.filter((l) => l.split === 'holdout')),
    'fresh held out': score(LABELLED.filter((l) => l.split === 'fresh')),
    'served check draw, held out (0305)': score(LABELLED.filter((l) => l.part === 'served4')),
    'second served check draw, held out (0306)': score(LABELLED.filter((l) => l.part === 'served9')),
    'third served check draw, held out (0307)': score(LABELLED.filter((l) => l.part === 'served10')),
    'eighth served draw (tuning, issue 20)': score(LABELLED.filter((l) => l.part === 'served11')),
    'fourth served check draw, held out (issue 20)': score(LABELLED.filter((l) => l.part === 'served12')),
    'ninth served draw (tuning, issue 20)': score(LABELLED.filter((l) => l.part === 'served13')),
    'tenth served draw (tuning, issue 20)': score(LABELLED.filter((l) => l.part === 'served14')),
    'fifth served check draw, held out (issue 20)': score(LABELLED.filter((l) => l.part === 'served15')),
    'eleventh served draw (tuning, issue 20)': score(LABELLED.filter((l) => l.part === 'served16')),
    'sixth served check draw, held out (issue 20)': score(LABELLED.filter((l) => l.part === 'served17')),
    'seventh served check draw, held out (issue 20)': score(LABELLED.filter((l) => l.part === 'served18')),
    'held-out served draws after the rounds of 2026-12-03/04 (served15, served17, served18)': score(
      LABELLED.filter((l) => l.part === 'served15' || l.part === 'served17' || l.part === 'served18'),
    ),
    'both held-out parts of the first and fresh draws': score(LABELLED.filter((l) => l.split === 'holdout' || l.split === 'fresh')),
    'every held-out part': score(LABELLED.filter((l) => l.split !== 'tune')),
    'uniform draw': score(LABELLED.filter((l) => l.part === 'uniform')),
    'hard cases': score(LABELLED.filter((l) => l.part === 'hard')),
  };
  for (const [part, s] of Object.entries(parts)) {
    t.diagnostic(`${part} (${s.n}): precision ${s.precision.toFixed(3)} recall ${s.recall.toFixed(3)} same class ${s.classAgreement.toFixed(3)}`);
  }
  assert.ok(parts['first draw'].precision >= 0.97, `precision ${parts['first draw'].precision.toFixed(3)}`);
  assert.ok(parts['first draw'].recall >= 0.95, `recall ${parts['first draw'].recall.toFixed(3)}`);
  const tuningDraws = [
    'served draw (tuning, 0305)',
    'second served draw (tuning, 0305)',
    'third served draw (tuning, 0305)',
    'fourth served draw (tuning, 0305)',
    'fifth served draw (tuning, 0305)',
    'sixth served draw (tuning, 0305)',
    'seventh served draw (tuning, 0305)',
    'eighth served draw (tuning, issue 20)',
  ] as const;
  for (const part of tuningDraws) {
    const served = parts[part];
    assert.ok(served.precision >= 0.97 && served.recall >= 0.95, `${part}: ${served.precision.toFixed(3)} / ${served.recall.toFixed(3)}`);
  }
  assert.equal(records.size, LABELLED.length, 'every labelled record is in the bundled dataset');
});

test('rules: names, kinds and bodies that say what a record is', () => {
  assert.equal(cls('省エネ設備導入補助金', 'subsidy'), 'programme');
  // The tenth served draw (served14, decision 0325).
  assert.equal(cls('中東・ウクライナ情勢や原油・原材料価格高騰に関する相談窓口の設置', 'subsidy'), 'committee', 'a desk being set up');
  assert.equal(cls('PPP/PFI ワンストップ窓口', 'consultation'), 'committee', 'a one-stop desk');
  assert.equal(cls('男女共同参画・女性活躍推進', 'subsidy'), 'index_page', 'two topics joined');
  assert.equal(cls('真岡市 農山漁村振興交付金「二宮地区活性化計画」', 'subsidy'), 'document', 'a plan under a grant');
  assert.equal(cls('農業集落排水事業 加入分担金', 'subsidy'), 'law_provision', 'a joining charge');
  assert.equal(cls('北杜市_土地改良事業における受益者分担金の軽減', 'subsidy'), 'programme', 'a charge reduced is a programme');
  assert.equal(cls('事業承継・M&A補助金', 'subsidy'), 'programme', 'a programme named with 補助金 is no index page');
  assert.equal(cls('わな猟免許取得支援', 'subsidy'), 'programme', 'money for a licence is a programme');
  assert.equal(cls('建築物省エネ法 第10条 省エネ基準適合義務 全建築物拡大'), 'law_provision');
  assert.equal(cls('ヘイトスピーチ解消法'), 'law_provision');
  assert.equal(cls('船員派遣事業 許可'), 'permit_procedure');
  assert.equal(cls('資金移動業 第三種'), 'permit_procedure');
  assert.equal(cls('丹波市農業補助金交付要綱', 'subsidy'), 'document');
  assert.equal(cls('福岡県水道広域化推進プラン (令和5年3月策定)'), 'document');
  assert.equal(cls('創業支援を受けたい|創業支援|東京都産業労働局', 'support'), 'index_page');
  assert.equal(cls('令和元年度補助金一覧', 'subsidy'), 'index_page');
  assert.equal(cls('子育て支援  | 山形県', 'subsidy'), 'index_page', 'a topic under a site title');
  assert.equal(cls('兵庫県／健康・医療・福祉', 'subsidy'), 'index_page');
  assert.equal(cls('農村起業家育成セミナー'), 'notice');
  assert.equal(cls('成長産業の技術開発を支援する補助金を交付する事業者を決定しました', 'subsidy'), 'notice');
  assert.equal(cls('飲食店POS (スマレジ/ユビレジ/Square/Airレジ)'), 'product');
  assert.equal(cls('中小企業政策審議会'), 'committee');
  assert.equal(cls('「2025年度労働者派遣事業者」選定のための公募について', 'research_grant'), 'procurement');
  assert.equal(cls('page top', 'support'), 'debris');
  assert.equal(cls('奈良県公式ホームページ', 'subsidy'), 'debris', 'a name that is only a site title leaves search');
  assert.equal(cls('水道管路 更新率 (令和4年度 0.65%)'), 'document');
  // Decision 0305: classes from a draw of served records, and the programmes they must leave alone.
  assert.equal(cls('(cid:5349)(cid:7231)(cid:9524)', 'subsidy'), 'debris');
  assert.equal(cls('京都府庁職員福利厚生センター3階第2・3会議室（京都市上京区）（PDF：307KB）', 'subsidy'), 'debris', 'a venue');
  assert.equal(cls('新規就農相談会（北海道新規就農フェア）', 'subsidy'), 'notice');
  assert.equal(cls('令和7年度愛媛県産業DXモデル横展開事業費補助金に係る補助対象事業者', 'subsidy'), 'notice');
  assert.equal(cls('パートナーシップ構築宣言 (登録支援)', 'certification'), 'programme', 'a declaration one registers is a scheme');
  assert.equal(cls('暴力団排除に係る誓約書（ワード：19KB）', 'subsidy'), 'document');
  assert.equal(cls('公衆浴場設備改善事業補助金概要（PDF：265KB）', 'subsidy'), 'document', 'a file linked from the page');
  assert.equal(cls('JSPS 特別研究員 募集要項', 'fellowship'), 'programme', "a call's text is the programme's page");
  assert.equal(cls('茨城県困難な問題を抱える女性支援基本計画の策定について', 'subsidy'), 'document');
  assert.equal(cls('農業振興関係補助金（丸亀市）', 'subsidy'), 'index_page');
  assert.equal(cls('環境にやさしい農業に関連する補助金', 'subsidy'), 'index_page');
  assert.equal(cls('女性の活躍推進', 'subsidy'), 'index_page');
  assert.equal(cls('スマート農業推進事業', 'subsidy'), 'programme', 'a named scheme is no topic page');
  assert.equal(cls('企画調整G', 'subsidy'), 'committee');
  assert.equal(cls('地域航空 EAS LLP (地域航空サービスアライアンス)'), 'committee');
  assert.equal(cls('公益社団法人認定', 'certification_with_tax_benefit'), 'programme');
  assert.equal(cls('公共下水道受益者負担金制度', 'subsidy'), 'law_provision');
  assert.equal(cls('北杜市 土地改良事業における受益者分担金の軽減', 'subsidy'), 'programme', 'a charge reduced is a measure');
  assert.equal(cls('選挙運動員・労務者への報酬規制'), 'law_provision');
  assert.equal(cls('法人事業税 所得割（普通法人・資本金1億円以下）'), 'law_provision');
  assert.equal(cls('史跡・名勝・天然記念物指定制度'), 'law_provision');
  assert.equal(cls('希少疾病用医薬品 (オーファンドラッグ) 指定制度'), 'programme', 'a designated drug gets support');
  assert.equal(
    cls('不動産ファンド投資を実施するためのゲートキーパーおよびファンド・オブ・ファンズマネージャーの募集について', 'research_grant'),
    'procurement',
  );
  assert.equal(cls('総合評価落札方式 くるみん認定加点 (次世代育成支援)', 'subsidy_for_points'), 'procurement');
  assert.equal(cls('出産費用 保険適用議論 (骨太2024)'), 'reference');
  assert.equal(cls('LCC 事業主体 (国内)'), 'reference');
  // The second served draw.
  assert.equal(cls('J-FLEC(金融経済教育推進機構)'), 'committee');
  assert.equal(cls('理容師美容師試験研修センター(指定試験機関)'), 'committee');
  assert.equal(cls('外国子会社合算税制（タックスヘイブン対策税制）'), 'law_provision');
  assert.equal(cls('中小企業経営強化税制'), 'programme');
  assert.equal(cls('石油国家備蓄事業'), 'reference');
  assert.equal(cls('小型家電リサイクル法 認定事業者制度'), 'permit_procedure');
  assert.equal(cls('深谷市 国・県補助事業', 'subsidy'), 'index_page');
  assert.equal(cls('企業立地ガイド', 'support'), 'index_page');
  assert.equal(cls('電源立地地域対策交付金を活用した事業の実績を公表します', 'subsidy'), 'notice');
  assert.equal(cls('えひめ人口減少対策総合交付金の県内各市町の取組み状況について', 'subsidy'), 'notice');
  assert.equal(cls('岩手町農業近代化資金利子補給規程'), 'document');
  // The third served draw.
  assert.equal(cls('会計年度任用職員（業務支援員）を募集します（監査委員事務局）', 'subsidy'), 'notice');
  assert.equal(cls('ぐんまDX技術革新補助金・ぐんま技術革新チャレンジ補助金 実施状況 - 群馬県ホームページ(地域企業支援課)', 'subsidy'), 'notice');
  assert.equal(cls('マネロン・テロ資金供与対策ガイドライン'), 'law_provision');
  assert.equal(cls('ひょうごの農福連携の取組', 'support'), 'index_page');
  assert.equal(cls('山形 未来を育む農業担い手育成支援事業 組織的な取組み', 'subsidy'), 'programme', 'a part of a named scheme');
  assert.equal(cls('事業承継支援について | 福井県ホームページ', 'subsidy'), 'index_page');
  assert.equal(cls('静岡県事業承継支援補助金', 'subsidy'), 'programme');
  assert.equal(cls('大野市_補助事業・助成金（農林水産業関連）', 'subsidy'), 'index_page');
  assert.equal(cls('男女共同参画に関するデータ', 'subsidy'), 'document');
  assert.equal(cls('Translate', 'support'), 'debris');
  // The fourth tuning draw.
  assert.equal(cls('補助制度等', 'subsidy'), 'index_page');
  assert.equal(cls('福井県の企業支援制度', 'subsidy'), 'index_page');
  assert.equal(cls('水産加工業物価高騰対策緊急経営支援事業の事業実施団体を公募します', 'support'), 'procurement');
  assert.equal(cls('「令和8年度宮城県看護職員採用支援事業業務」の企画提案を募集します', 'support'), 'procurement');
  assert.equal(cls('経営者保証に関するガイドライン 事業承継時の特則', 'guideline'), 'law_provision');
  assert.equal(cls('インボイス制度 卸売市場特例 対象市場基準（令和2年農林水産省告示第683号）'), 'law_provision');
  assert.equal(cls('管理不全空家等・特定空家等への固定資産税住宅用地特例解除（6倍化）'), 'law_provision');
  assert.equal(cls('労働保険 年度更新 令和7年度'), 'law_provision');
  assert.equal(cls('認定農業者の認定状況（令和6年3月末）'), 'notice');
  assert.equal(cls('スタジアム・アリーナ改革 (20拠点整備)'), 'reference');
  assert.equal(cls('支援する', 'support'), 'debris');
  // The fifth tuning draw.
  assert.equal(cls('建築確認 4号特例 廃止（2025-04-01 施行）'), 'law_provision');
  assert.equal(cls('人間ドック・健康診断補助の税制扱い (国税庁通達)', 'tax_treatment'), 'law_provision');
  assert.equal(cls('介護保険 第1号被保険者 保険料 (第9期 2024-2026)', 'kaigo_insurance_premium'), 'law_provision');
  assert.equal(cls('地震保険料控除', 'tax_deduction'), 'programme', 'a deduction of premiums is a measure');
  assert.equal(cls('住宅(支援制度等)', 'support'), 'index_page');
  assert.equal(cls('使える補助金チェックチャート', 'subsidy'), 'index_page');
  assert.equal(cls('スタートアップビザ(外国人起業活動促進事業)', 'visa'), 'permit_procedure');
  assert.equal(cls('えひめ人口減少対策総合交付金に係る市町からの要望を踏まえた見直しに関する記者発表の要旨', 'subsidy'), 'notice');
  assert.equal(cls('能登事業者支援センターの開設', 'subsidy'), 'notice');
  // The sixth tuning draw.
  assert.equal(cls('補助金リスト（2026.4.15時点）', 'subsidy'), 'index_page');
  assert.equal(cls('公募・補助金等（職業能力開発）', 'subsidy'), 'index_page');
  assert.equal(cls('あきる野市_認定農業者向け市独自支援策（検討中）', 'subsidy'), 'notice');
  assert.equal(cls('中小法人 軽減税率 17%引上げ（所得10億円超）'), 'notice');
  assert.equal(cls('ものづくり補助金 経営革新計画加点', 'grant_point_item'), 'document');
  assert.equal(cls('偽・誤情報/ディープフェイク 選挙対策(総務省検討会)'), 'committee');
  assert.equal(cls('PRTR制度 届出（化管法 化学物質排出把握管理促進法）'), 'permit_procedure');
  // The seventh tuning draw.
  assert.equal(cls('特産物振興『栗』関連補助制度', 'subsidy'), 'index_page');
  assert.equal(cls('８月９日からの大雨に関する農林漁業者への支援制度と相談窓口', 'subsidy'), 'index_page');
  assert.equal(cls('事業内容 事業主体 補助率', 'subsidy'), 'debris');
  assert.equal(cls('中小企業省力化投資補助金（カタログ注文型）', 'subsidy'), 'programme', 'a subsidy of the catalogue type');
  assert.equal(cls('掛川市_農林水産省の農業経営支援策活用カタログ（2025年度版）掲載制度', 'subsidy'), 'index_page');
  assert.equal(cls('新型コロナウイルス感染症事業者支援パッケージ', 'support'), 'index_page');
  // Decision 0307: results, operator calls, and a prefecture site's support topics.
  assert.equal(cls('スポーツエールカンパニー2026 認定結果', 'certification'), 'notice');
  assert.equal(cls('SpaceJet (MRJ) プロジェクト終了'), 'notice');
  assert.equal(cls('令和7年度長野県障がい児等療育支援事業の受託候補者を募集します（募集を締め切りました）', 'support'), 'procurement');
  assert.equal(cls('「ひなたゼロカーボン加速化事業補助金」補助事業者（執行団体）の公募について', 'subsidy'), 'procurement');
  const prefPage = (publishedName: string, url: string) =>
    classifyRecord({ unified_id: 'UNI-x', publishedName, name: cleanProgramName(publishedName).name, programKind: 'support', officialUrl: url }).recordClass;
  assert.equal(prefPage('スタートアップ支援', 'https://www.pref.shizuoka.jp/sangyoshigoto/x.html'), 'index_page', "a prefecture site's topic");
  assert.equal(prefPage('特別支援教育', 'https://www.pref.miyazaki.lg.jp/kyoikukosodate/x.html'), 'index_page');
  assert.equal(prefPage('スタートアップ支援', 'https://www.tokyo-cci.or.jp/entre/'), 'programme', "another source's support page keeps its class");
  assert.equal(prefPage('わな猟免許取得支援', 'https://www.pref.akita.lg.jp/x.html'), 'programme', 'support for getting something');
  assert.equal(prefPage('移住支援事業', 'https://www.pref.akita.lg.jp/x.html'), 'programme', 'a named scheme');
  assert.equal(
    prefPage('県内中小企業等による省エネルギー設備の導入を支援します。', 'https://www.pref.niigata.lg.jp/x.html'),
    'programme',
    'an offer announced',
  );
  const taxPage = (publishedName: string, programKind: string) =>
    classifyRecord({
      unified_id: 'UNI-x',
      publishedName,
      name: publishedName,
      programKind,
      officialUrl: 'https://www.nta.go.jp/taxes/shiraberu/taxanswer/hojin/5211.htm',
    }).recordClass;
  assert.equal(taxPage('役員報酬の最適化設計', 'tax'), 'law_provision', 'an explanation of the tax authority');
  assert.equal(taxPage('少額減価償却資産の特例', 'tax'), 'programme', 'a measure in the taxpayer’s favour on the same site');
});

// Decision 0318: classes found in the eighth served tuning draw (served11), each with the programmes it must leave alone.
test('rules of 0318: announced schemes, fee rules, welfare service types, regulations, lines of business, positions, support for a group, prefecture pages without evidence', () => {
  // announced: created later, or a method changing
  assert.equal(cls('新たな環境直接支払交付金(令和9年度創設予定)', 'subsidy'), 'notice');
  assert.equal(cls('外国人旅行者向け消費税免税制度(輸出物品販売場)リファンド方式移行'), 'notice');
  assert.equal(cls('新薬創出・適応外薬解消等促進加算(2026年度から『革新的新薬薬価維持制度』に改称予定)'), 'programme', 'renamed, not created later');
  assert.equal(cls('進学助成金 ※令和9年4月入学者向けの募集は令和8年10月上旬頃開始予定です。', 'subsidy'), 'programme', 'a call opening later');
  // fee rules and service types of the welfare laws
  assert.equal(cls('就労継続支援A型 (基本報酬・スコア方式)', 'welfare_service_payment'), 'law_provision');
  assert.equal(cls('就労継続支援B型 一般就労移行加算・目標工賃達成加算', 'welfare_service_addon'), 'programme', 'a fee addition');
  assert.equal(cls('就労定着支援', 'welfare_service_payment'), 'reference');
  assert.equal(cls('児童発達支援事業所(未就学児)'), 'reference');
  assert.equal(cls('看護小規模多機能型居宅介護 (看多機)', 'community_based_care_service'), 'reference');
  assert.equal(cls('栃木県訪問介護事業者経営改善支援事業費補助金', 'subsidy'), 'programme', 'a subsidy for providers');
  // Decision 0331: the law names a service type …事業 too; the service-type labelling rule (labelled_records.md) calls it the category.
  assert.equal(cls('就労選択支援事業(令和7年10月施行)', 'service_designation'), 'reference', 'a service type named …事業');
  assert.equal(cls('自立援助ホーム (児童自立生活援助事業)'), 'reference', 'a child-welfare provider type');
  assert.equal(cls('病児保育事業'), 'programme', 'a municipal service parents use directly');
  assert.equal(cls('就労選択支援事業所整備補助金', 'subsidy'), 'programme', 'money for providers');
  assert.equal(cls('生活困窮者自立相談支援事業', 'support'), 'programme');
  // regulations
  assert.equal(cls('物流効率化法 (新物効法) 認定制度 + 荷主行動規制', 'regulatory_certification'), 'law_provision');
  assert.equal(cls('適格機関投資家等特例業務 (ヘッジファンド規制)'), 'law_provision');
  assert.equal(cls('国際規制関連経営安定資金', 'loan_international_regulation'), 'programme', 'money given');
  assert.equal(cls('規制緩和による新事業の実証支援'), 'programme', 'deregulation');
  // a firm's line of business
  assert.equal(cls('日本貨物航空 (NCA) / 航空貨物事業'), 'product');
  assert.equal(cls('エンジンMRO事業 (IHI / 川崎重工 / 三菱重工航空エンジン)'), 'product');
  assert.equal(cls('日本郵船 (NYK) / 海運事業'), 'product');
  assert.equal(cls('垂水市新規就農者機械・施設整備事業', 'subsidy'), 'programme', 'a scheme that builds');
  assert.equal(cls('航空貨物事業', 'subsidy'), 'programme', 'a kind upstream is evidence');
  // a position in a figure
  assert.equal(cls('事業系食品ロス 卸売業の位置付け（令和4年度）'), 'document');
  assert.equal(cls('農地利用効率化等支援交付金(地域計画目標地図位置付け農業者向け)', 'subsidy'), 'programme');
  // support for a group named generically, two generic words joined
  assert.equal(cls('立地企業への優遇制度／千葉県', 'subsidy'), 'index_page');
  assert.equal(cls('新規就農者向け支援施策（南島原市）', 'subsidy'), 'index_page');
  assert.equal(cls('子育て支援・制度', 'support'), 'index_page');
  assert.equal(cls('災害に関する支援・助成', 'subsidy'), 'index_page');
  assert.equal(cls('中小企業向け設備投資支援補助金', 'subsidy'), 'programme', 'a subsidy for a group');
  assert.equal(cls('子育て支援制度利用促進事業', 'subsidy'), 'programme');
  // a prefecture's page typed subsidy whose name says nothing one receives
  assert.equal(cls('農林水産業', 'subsidy', 'https://www.pref.yamanashi.jp/shigoto/hojo/norin/index.html'), 'index_page');
  assert.equal(cls('男女共同参画', 'subsidy', 'https://www.pref.ibaraki.jp/manabu/danjokyodosankaku/index.html'), 'index_page');
  assert.equal(cls('男女共同参画', 'subsidy', 'https://www.city.example.lg.jp/x.html'), 'programme', "a city's subsidy keeps its class");
  assert.equal(cls('佐伯市ファーマーズスクール', 'subsidy', 'https://www.pref.oita.jp/'), 'programme', "a site's top page says nothing of the page");
  assert.equal(cls('地方活力向上地域等における県税の特別措置', 'tax_reduction_by_ordinance', 'https://www.pref.ibaraki.jp/somu/zeimu/x.html'), 'programme');
  assert.equal(cls('就農ファーマーズスクール', 'subsidy', 'https://www.pref.oita.jp/x.html'), 'programme', 'a school is training');
  // classes read in the served catalogue after these rules: a measure ended, a duty, a standard, a policy package, a policy with its plan in brackets, a document's words
  assert.equal(cls('DX投資促進税制（廃止）'), 'notice');
  assert.equal(cls('デジタル活用支援推進事業 令和7年度 (終期確定)'), 'programme', 'an end date fixed is no end');
  assert.equal(cls('賃上げ促進税制 (中堅企業向け) [令和8年度廃止]', 'tax_credit'), 'programme', 'to end in a year named: still in force');
  assert.equal(cls('産業医選任義務（50人以上事業場）'), 'law_provision');
  assert.equal(cls('警備業認定・警備員指導教育責任者選任'), 'law_provision');
  assert.equal(cls('障害者雇用義務の達成に向けた助成金', 'subsidy'), 'programme', 'money given');
  assert.equal(cls('実験動物 飼養保管・苦痛軽減基準'), 'law_provision');
  assert.equal(cls('索道事業 (鉄道事業法・索道施設基準省令)'), 'law_provision');
  assert.equal(cls('省エネ基準適合住宅補助金', 'subsidy'), 'programme');
  assert.equal(cls('年収の壁・支援強化パッケージ'), 'index_page');
  assert.equal(cls('地域社会DX推進パッケージ事業', 'subsidy'), 'programme', 'a scheme named …パッケージ事業');
  assert.equal(cls('安来市就農パッケージ(イチゴ)', 'training'), 'programme', 'a kind upstream');
  assert.equal(cls('就職氷河期世代支援(政府行動計画)'), 'document');
  assert.equal(cls('事業適応計画 認定 (カーボンニュートラル / グリーン 成長戦略)', 'certification'), 'programme');
  assert.equal(cls('法人事業概況説明書・別表一〜十六'), 'document');
  assert.equal(cls('EAP（従業員支援プログラム）市場概要・主要事業者'), 'document');
  assert.equal(cls('事業説明書作成支援補助金', 'subsidy'), 'programme');
  assert.equal(cls('産業高度化・事業革新促進計画 平成24年度実施状況報告の公表', 'support'), 'notice');
  assert.equal(cls('令和7年度障がい者ふれあい支援事業の対象事業', 'support'), 'notice');
  assert.equal(cls('令和7年度障がい者ふれあい支援事業', 'support'), 'programme', 'the scheme itself');
  assert.equal(cls('中小企業者等向け支援事業統合ページ', 'support'), 'index_page');
  assert.equal(cls('★募集中の公共職業訓練など★（テクノスクール注目情報）', 'support'), 'index_page');
  assert.equal(cls('ホームページ作成支援補助金', 'subsidy'), 'programme');
});

test('kinds: one English vocabulary from the upstream kind, else from the name', () => {
  assert.deepEqual(normaliseKind('補助金', 'X'), { kind: 'subsidy', rule: 'kind_map' });
  assert.deepEqual(normaliseKind('補助金(文化芸術振興費補助金)', 'X'), { kind: 'subsidy', rule: 'kind_map' });
  assert.deepEqual(normaliseKind('tax_deduction', 'X'), { kind: 'tax_measure', rule: 'kind_map' });
  assert.deepEqual(normaliseKind('mutual_aid', 'X'), { kind: 'insurance', rule: 'kind_map' });
  assert.deepEqual(normaliseKind('research_grant', 'X'), { kind: 'grant', rule: 'kind_map' });
  assert.deepEqual(normaliseKind(null, '中小企業投資促進税制'), { kind: 'tax_measure', rule: 'name' });
  assert.deepEqual(normaliseKind(null, '創業支援融資'), { kind: 'loan', rule: 'name' });
  assert.deepEqual(normaliseKind('support', '経営相談窓口'), { kind: 'consultation', rule: 'name' }, 'a broad upstream kind yields to the name');
  assert.deepEqual(normaliseKind('support', 'にいがたagribase'), { kind: 'support_service', rule: 'kind_map' });
  assert.deepEqual(normaliseKind(null, 'にいがたagribase'), { kind: null, rule: null });
  assert.deepEqual(normaliseKind('subsidy', '事業承継税制(特例措置)'), { kind: 'tax_measure', rule: 'name' }, 'the name corrects an upstream subsidy');
  assert.deepEqual(normaliseKind('subsidy', '信用保証料補助金'), { kind: 'subsidy', rule: 'kind_map' }, 'money given outright stays a subsidy');
  // ドローン holds the letters of ローン (a loan): a drone is not lent money.
  assert.deepEqual(normaliseKind(null, 'ドローン農薬散布導入支援'), { kind: null, rule: null });
  assert.deepEqual(normaliseKind(null, '産業用ドローン導入補助金'), { kind: 'subsidy', rule: 'name' });
  assert.deepEqual(normaliseKind(null, 'マイカーローン利子補給'), { kind: 'subsidy', rule: 'name' });
  assert.deepEqual(normaliseKind(null, '住宅ローン'), { kind: 'loan', rule: 'name' });
});

test('overrides: a reviewed line decides class and kind; a line without a reason or with an unknown class is refused', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'record-classes.jsonl');
  writeFileSync(
    file,
    [
      '// comment',
      JSON.stringify({ unified_id: 'UNI-a', record_class: 'committee', reason: 'a council, though its name reads like a scheme' }),
      JSON.stringify({ unified_id: 'UNI-b', record_class: 'programme', program_kind: 'loan', reason: 'a JFC loan listed under its brand' }),
    ].join('\n'),
  );
  const overrides = readClassOverrides(file);
  const input = { unified_id: 'UNI-a', publishedName: '省エネ設備導入補助金', name: '省エネ設備導入補助金', programKind: 'subsidy' };
  assert.deepEqual(classifyRecord(input, overrides), { recordClass: 'committee', classRule: 'override', programKind: 'subsidy', kindRule: 'kind_map' });
  assert.deepEqual(classifyRecord({ ...input, unified_id: 'UNI-b' }, overrides), {
    recordClass: 'programme',
    classRule: 'override',
    programKind: 'loan',
    kindRule: 'override',
  });
  writeFileSync(file, JSON.stringify({ unified_id: 'UNI-c', record_class: 'committee' }));
  assert.throws(() => readClassOverrides(file), /record-classes\.jsonl:1: needs/);
  writeFileSync(file, JSON.stringify({ unified_id: 'UNI-c', record_class: 'page', reason: 'no such class' }));
  assert.throws(() => readClassOverrides(file), /record-classes\.jsonl:1/);
  // The repository's own file is valid.
  readClassOverrides();
});

test('exclusion: a non-programme is tier X with its class as the reason; an upstream reason stays', () => {
  const given = { tier: 'A', excluded: false, exclusion_reason: null };
  assert.deepEqual(withClassExclusion(given, 'programme'), given);
  assert.deepEqual(withClassExclusion(given, 'law_provision'), { tier: 'X', excluded: true, exclusion_reason: 'not_a_programme:law_provision' });
  assert.deepEqual(withClassExclusion({ tier: 'X', excluded: true, exclusion_reason: 'unclassified' }, 'notice'), {
    tier: 'X',
    excluded: true,
    exclusion_reason: 'not_a_programme:notice',
  });
  assert.deepEqual(
    withClassExclusion({ tier: 'X', excluded: true, exclusion_reason: 'unclassified_legacy' }, 'notice').exclusion_reason,
    'unclassified_legacy',
  );
});

test('the built catalogue: non-programmes are excluded tier X with their class as the reason; kinds from one vocabulary', async (t) => {
  const { db } = await testCatalog();
  const served = db.all<{ n: number }>("SELECT count(*) AS n FROM programs WHERE record_class <> 'programme' AND (excluded = 0 OR tier <> 'X')")[0].n;
  assert.equal(served, 0, 'every non-programme is excluded tier X');
  const reasons = db.all<{ record_class: string; exclusion_reason: string }>(
    "SELECT record_class, exclusion_reason FROM programs WHERE record_class <> 'programme' AND exclusion_reason LIKE 'not_a_programme:%'",
  );
  assert.ok(reasons.length > 300);
  for (const r of reasons) assert.equal(r.exclusion_reason, `not_a_programme:${r.record_class}`);
  const kinds = db.all<{ program_kind: string }>('SELECT DISTINCT program_kind FROM programs WHERE program_kind IS NOT NULL');
  for (const k of kinds) assert.ok((PROGRAM_KINDS as readonly string[]).includes(k.program_kind), k.program_kind);
  const withKind = db.all<{ n: number }>("SELECT count(*) AS n FROM programs WHERE record_class = 'programme' AND program_kind IS NULL")[0].n;
  t.diagnostic(`programmes without a kind: ${withKind}`);
});

test('the served catalogue: a non-programme is off default pages, reachable by id and with include_excluded', async (t) => {
  const { db } = await testCatalog();
  const law = db.all<{ unified_id: string; primary_name: string }>(
    "SELECT unified_id, primary_name FROM programs WHERE record_class = 'law_provision' AND primary_name LIKE '%法' ORDER BY unified_id LIMIT 1",
  )[0];
  const app = await build(t);
  const detail = await app.inject(`/v1/programs/${law.unified_id}`);
  assert.equal(detail.statusCode, 200);
  assert.equal(body(detail).tier, 'X');
  assert.equal(body(detail).exclusion_reason, 'not_a_programme:law_provision');
  const q = encodeURIComponent(law.primary_name);
  const hidden = body<{ results: { unified_id: string }[] }>(await app.inject(`/v1/programs/search?q=${q}&limit=100`));
  assert.ok(!hidden.results.some((r) => r.unified_id === law.unified_id), 'not on a default page');
  const shown = body<{ results: { unified_id: string }[] }>(await app.inject(`/v1/programs/search?q=${q}&limit=100&include_excluded=true`));
  assert.ok(
    shown.results.some((r) => r.unified_id === law.unified_id),
    'found with include_excluded',
  );
});

// Decision 0325: classes found in the ninth served tuning draw (served13), each with the programmes it must leave alone.
test('rules of 0325: measures named generically, childcare service types, a machine approval, a subsidy plan, news of a change, a state company, registered products', () => {
  // a field's or a group's subsidies together, with two words of support joined
  assert.equal(cls('住宅関連助成制度', 'subsidy'), 'index_page');
  assert.equal(cls('事業者向けの助成・支援制度', 'subsidy'), 'index_page');
  assert.equal(cls('住宅リフォーム助成制度', 'subsidy'), 'programme', 'one scheme');
  // measures named generically, whoever runs them in brackets
  assert.equal(cls('海外展開支援施策 (JCCI/METI/JETRO 連携)', 'support_service'), 'index_page');
  assert.equal(cls('海外展開支援補助金 (JETRO 連携)', 'subsidy'), 'programme', 'money given');
  // the childcare services of the 子ども・子育て支援法
  assert.equal(cls('小規模保育事業(A型・B型・C型)地域型保育給付', 'subsidy'), 'reference');
  assert.equal(cls('小規模保育事業所整備補助金', 'subsidy'), 'programme', 'a subsidy for providers');
  // a machine's safety approval, a pilot's licence
  assert.equal(cls('無人航空機 機体認証制度 (第一種・第二種)', 'certification'), 'permit_procedure');
  assert.equal(cls('ドローン技能証明取得支援補助金', 'subsidy'), 'programme', 'money given');
  // a plan filed under a subsidy; news of a change to schemes
  assert.equal(cls('「なりわい再建支援補助金」に係る復興事業計画', 'subsidy'), 'document');
  assert.equal(cls('嶺南地域の脱炭素関連補助金の拡大', 'subsidy'), 'notice');
  assert.equal(cls('経営革新計画策定支援補助金', 'subsidy'), 'programme');
  // a company the state founded, named alone; the products a register lists
  assert.equal(cls('株式会社民間資金等活用事業推進機構（PFI推進機構）', 'loan'), 'committee');
  assert.equal(cls('地理的表示(GI)保護制度 登録産品'), 'product');
  assert.equal(cls('地理的表示 (GI) 保護制度 - 園芸作物関連'), 'programme', 'the registration itself');
  // a public body's support service: a council or consortium named with what it runs; a desk named as one stays a desk
  assert.equal(cls('JFC 災害等相談窓口', 'consultation'), 'committee', 'issue 20 counts …相談窓口 among the non-programmes');
  assert.equal(cls('中小企業活性化協議会 (再生支援)', 'consultation'), 'programme');
  assert.equal(cls('新輸出大国コンソーシアム スポット支援', 'consultation'), 'programme');
  assert.equal(cls('畜産物輸出コンソーシアム推進対策事業', 'grant'), 'programme');
  assert.equal(cls('こども食堂等への政府備蓄米無償交付制度 (R7拡充)'), 'programme', 'rice given free');
  assert.equal(cls('企業経営に関する各種相談窓口', 'subsidy'), 'committee', 'a desk the kind does not call a consultation');
  assert.equal(cls('TCFDコンソーシアム'), 'committee', 'a consortium named alone');
  assert.equal(cls('次世代エアモビリティ開発推進コンソーシアム', 'support_service'), 'committee');
  assert.equal(cls('中小企業活性化協議会'), 'committee', 'a council named alone');
});

// Decision 0331: classes found in the eleventh served tuning draw (served16), each with the programmes it must leave alone.
test("rules of 0331: a trade certified or registered, bodies registered to certify, a grant's after-procedures, a corporation's taxable scope, a policy programme", () => {
  assert.equal(cls('認定家賃債務保証業者制度', 'guarantee'), 'permit_procedure', 'a trade registered under a law');
  assert.equal(cls('小型家電リサイクル法 認定事業者制度'), 'permit_procedure');
  assert.equal(cls('認定農業者制度', 'subsidy'), 'programme', 'a farmer certified for support');
  assert.equal(cls('認定新規就農者制度（青年等就農計画の認定）', 'subsidy'), 'programme');
  assert.equal(cls('医療機器・体外診断用医薬品 登録認証機関(IRCB)制度', 'certification'), 'permit_procedure', 'bodies registered to certify');
  assert.equal(cls('認定経営革新等支援機関', 'certification'), 'programme', 'support bodies certified to help SMEs');
  assert.equal(cls('「なりわい再建支援補助金」実績報告手続き', 'subsidy'), 'notice', 'what recipients file after the grant');
  assert.equal(cls('企業化状況報告（ぐんまＤＸ技術革新補助金・ぐんま技術革新チャレンジ補助金等）', 'subsidy'), 'notice');
  assert.equal(cls('「なりわい再建支援補助金」交付申請手続き', 'subsidy'), 'programme', 'applying for the grant is the programme');
  assert.equal(cls('宗教法人の墳墓地貸付 法人税非課税の特例（墓地は収益事業除外）', 'loan'), 'law_provision', "the tax law's scope");
  assert.equal(cls('公益法人 収益事業以外 非課税', 'tax_measure'), 'law_provision');
  assert.equal(cls('農事組合法人の事業税非課税', 'tax_measure'), 'programme', 'a tax exemption of a kind of body');
  assert.equal(cls('対日直接投資促進プログラム 2025（5本柱）'), 'document', 'a policy named a programme, its pillars in brackets');
  assert.equal(cls('事業適応計画 認定 (カーボンニュートラル / グリーン 成長戦略)', 'certification'), 'programme', 'a kind upstream');
  // read in the served catalogue after them: news sentences, a report published, a social insurance's standard
  assert.equal(cls('3月26日（木曜日）より申請及びコールセンターでの対応を開始しました。', 'subsidy'), 'notice', 'a news sentence naming no money');
  assert.equal(cls('女性活躍のための働きやすい環境整備支援事業費補助金について更新しました', 'subsidy'), 'programme', "the subsidy's page, updated");
  assert.equal(cls('広報・調査等交付金を活用した事業の概要等の公表', 'subsidy'), 'notice', 'a report published');
  assert.equal(cls('安全衛生優良企業公表制度（SAFE Co.認定）', 'certification'), 'programme', 'a scheme named 公表制度');
  assert.equal(cls('介護保険 区分支給限度基準額 (令和3年4月〜現行)', 'insurance'), 'law_provision', "the social insurance's standard gives nothing");
  assert.equal(cls('雇用保険 基本手当 (給付日数の基準)', 'insurance'), 'programme', 'a benefit paid');
});
