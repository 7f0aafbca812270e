// What a record is, decided at ingest (docs/decisions/0300-record-classes-at-ingest.md):
// a programme someone can use — with a normalised `program_kind` — or one of
// the pages scraping brought in beside programmes (a law, a licence
// procedure, a notice, an index page, a product, a committee, a document, a
// procurement notice, page debris). Non-programmes leave the default pages
// (tier X, `exclusion_reason` naming the class); they stay reachable by id
// and with include_excluded.
//
// Rules over the name (published and cleaned), the upstream kind and the
// URL, first match wins; where rules cannot decide, a reviewed override
// (data/overrides/record-classes.jsonl, each line with its reason) does.
// Measured on a hand-labelled sample (test/fixtures/labelled_records.jsonl).
// Pure functions apart from reading the override file.
import { readReviewedLines } from './reviewed-file.ts';
import path from 'node:path';

export const RECORD_CLASSES = [
  'programme',
  'law_provision',
  'permit_procedure',
  'notice',
  'index_page',
  'product',
  'committee',
  'document',
  'procurement',
  'reference',
  'debris',
] as const;
export type RecordClass = (typeof RECORD_CLASSES)[number];

/** The one vocabulary of `program_kind` (English identifiers, like the contract's other enumerations). */
export const PROGRAM_KINDS = [
  'subsidy',
  'grant',
  'loan',
  'guarantee',
  'insurance',
  'investment',
  'tax_measure',
  'fee_reduction',
  'certification',
  'consultation',
  'training',
  'award',
  'support_service',
] as const;
export type ProgramKind = (typeof PROGRAM_KINDS)[number];

export interface ClassifyInput {
  unified_id: string;
  /** The name as published (before names.ts cleaned it). */
  publishedName: string;
  /** The cleaned name (names.ts#cleanProgramName). */
  name: string;
  /** The upstream kind, in whatever vocabulary it came. */
  programKind: string | null | undefined;
  officialUrl?: string | null;
  sourceUrl?: string | null;
}

export interface Classification {
  recordClass: RecordClass;
  /** The rule (or `override`) that decided the class. */
  classRule: string;
  programKind: ProgramKind | null;
  /** How the kind was found: `kind_map` (from the upstream kind), `name` (from the name), `override`; null when none. */
  kindRule: string | null;
}

export interface ClassOverride {
  unified_id: string;
  record_class: RecordClass;
  program_kind?: ProgramKind | null;
  reason: string;
}

export const RECORD_CLASS_OVERRIDES_FILE = path.join(import.meta.dirname, '..', '..', '..', '..', 'data', 'overrides', 'record-classes.jsonl');

/** The reviewed overrides by unified_id; a line without a known class or a reason is an error (the file is reviewed data). */
export function readClassOverrides(file = RECORD_CLASS_OVERRIDES_FILE): Map<string, ClassOverride> {
  const out = new Map<string, ClassOverride>();
  readReviewedLines<ClassOverride>(file, (o) => {
    const kindOk = o.program_kind === undefined || o.program_kind === null || (PROGRAM_KINDS as readonly string[]).includes(o.program_kind);
    if (!o.unified_id || !(RECORD_CLASSES as readonly string[]).includes(o.record_class) || !kindOk || !o.reason?.trim()) {
      return 'needs unified_id, a known record_class (and program_kind), and a reason';
    }
    out.set(o.unified_id, o);
    return null;
  });
  return out;
}

// ---------------------------------------------------------------------------
// Words

/** Money or a measure someone receives: the strongest sign of a programme. */
const BENEFIT =
  /補助|助成|交付金|支援金|給付金?|奨励金|補給金|協力金|応援金|報奨金|手当|一時金|融資|貸付|貸与|(?<![ドク])ローン|資金|利子|税制|減税|控除|特例|償却|猶予|減免|免除|軽減|優遇|共済|保険|出資|投資育成|保証|奨学|フェローシップ|研究員|賞$|アワード|表彰|顕彰|グランプリ|研修|講座|(?:専門家|アドバイザー|コーディネーター)派遣|相談|補償|補填|価格安定|経営安定|見舞金|祝金|報酬|無償化|支給|プログラム(?:$|\s|[（(])|基金|塾|講習|訓練|ツアー/u;
/** What a programme is called when it names no money: a scheme, a project, a service (not 支援 alone: 子育て支援 is a topic). */
const SCHEME = /事業(?!者|所|主体)|制度|対策|サービス|センター|窓口|認定|推進|協力隊|整備|活用|育成|就農|移住|定住|創業|起業|開発|実証|公募|募集/u;

const DEBRIS =
  /^(?:page\s*top|ページの?先頭へ?|メインコンテンツへ移動|本文へ(?:移動|スキップ)?|メニュー|トップページ|ホーム|サイトマップ|home|menu|skip to .*)$/iu;
/** Part of a sentence, not a title: opens with the particle を, asks or directs the reader, or is a row of single-character cells (称 制 度 概 要). */
const FRAGMENT =
  /^を|^\S{1,6}する$|していただ(?:き|け)ますよう|お願い(?:します|いたします)[。！!]?\s*\S{0,3}$|(?:ことなら|はこちら)[。！!]?$|(?:^|\s)\S(?:\s\S){3,}(?:\s|$)/u;
/** A table's header cells scraped as a name (摘 要, 制度内容 申請期間 …). */
const HEADER_CELLS =
  /^(?:(?:摘\s*要|備\s*考|項\s*目|内\s*容|制度内容|事業名|申請期間|受付期間|対象者?|概\s*要|補助金リンク|リンク先?|問い?合わ?せ先?|称等|詳細情報・条件等|募集期間|事業内容|事業主体|補助率|名\s*称)\s*)+$/u;
/** A language menu entry or a link label: Português, English, 詳しくはこちら. */
const LINK_LABEL =
  /^(?:(?:中文|简体|繁體|한국어|english|português|español)[^\s]{0,8}|english|português|español|français|中文|简体中文|繁體中文|한국어|tiếng việt|tagalog|filipino|नेपाली|bahasa indonesia|やさしい日本語|[\p{Script=Myanmar}\p{Script=Thai}\p{Script=Devanagari}\s]+|translate|languages?|詳しくはこちら|こちら|もっと見る|一覧へ|戻る)$/iu;
/** A site's title and nothing else: 奈良県公式ホームページ. */
const SITE_TITLE = /^(?:[^\s]{1,16}?)?(?:公式)?(?:ホームページ|ウェブサイト|webサイト|サイト|ポータルサイト)(?:\s*[[［(（].*[\]］)）])?$/iu;

const PROCUREMENT =
  /入札(?!参加資格)|落札|プロポーザル|委託先|受託者|委託事業者|業務委託|委託業務|包括委託|企画提案(?:競技|コンペ)?(?:の募集|の実施)?(?:について|を実施します)?$|企画提案を募集|事業者(?:の)?選定|選定のための公募|運営権|特定\S{0,6}運営事業|コンセッション|[（(]委託[）)]|委託[（(](?:一般競争|総合評価|企画競争)/u;
/** A survey or analysis commissioned about something (…の運用に向けた調査・分析, …に関する調査業務): a contract, whatever it is about. */
const SURVEY_WORK = /(?:調査|分析|検証|検討)(?:[・及びと](?:調査|分析|検証|検討|研究))+(?:業務)?等?$|(?:調査|分析)業務等?$/u;
/** What a name is about: the part after its last relational phrase (…に向けた, …に関する, …に係る). */
const RELATION = /(?:に向けた|に関する|に係る|に関わる|のための|における|を対象とした)/u;
/** A contact desk one calls (相談窓口): a body, not a scheme (issue 20 counts these names among the non-programmes). */
const DESK = /相談窓口(?:\s*[（(][^（）()]*[）)])*$/u;

// Classes found in a random draw of 300 served records (labelled_records.jsonl, part "served"; decision 0305).
/** Text extracted from a PDF as glyph codes ((cid:5349)(cid:7231)…), or the venue of a meeting (…3階第2・3会議室（住所）): no name at all. */
const GARBLED = /\(cid:[0-9]+\)/u;
const VENUE = /(?:会議室|会場|ホール)(?:\s*[（(][^（）()]*[）)])*$/u;
/** A clause of a rule or a list item cut from a page (…を公表すること, 組織化に関すること). */
const CLAUSE = /(?:すること|に関すること)$/u;
/** A file linked from a page, named with its format and size (…（PDF：307KB）, (ワード：19KB)): a document, not the programme's page. */
const ATTACHMENT = /[（([［][^（）()[\]［］]*?(?:pdf|ワード|word|エクセル|excel|xlsx?|docx?)[^（）()[\]［］]*?[0-9.,]+\s*[km]b\s*[）)\]］]/iu;
/** A government plan being adopted or revised (…基本計画の策定について). */
const PLAN_ADOPTED = /(?:計画|プラン|ビジョン|方針|戦略|指針)(?:\s*[（(][^（）()]*[）)])?の(?:策定|改定|改訂|公表|見直し|変更)$/u;
/** An event (a fair, a consultation day, a forum): news of it, not a programme (a declaration, 宣言, is often a scheme one registers for: not here). */
const EVENT =
  /(?:相談会|説明会|交流会|フェア|フォーラム|イベント|マルシェ|フェスタ|スタンプラリー)(?:の(?:開催|実施))?(?:について)?$|の開催$|(?:に係る|に関する|への)対応$/u;
/** What a programme funded or who takes part in it (…補助金活用事業, …の補助対象事業者, …を活用した取組): its results. */
const USES = /補助金活用事業[）)]?$|(?:交付金|補助金)(?:を)?活用(?:した)?事業(?:について)?$|を活用した取組|(?:参加|補助対象|採択|研修)事業者$/u;
/** A body of companies or a research institute named alone; a designated examination body (…(指定試験機関)) whatever its name offers. */
const COMPANY_BODY = /\bllp\b|有限責任事業組合|アライアンス|研究所|研究センター|試験研究/iu;
/** A legal person named alone (一般財団法人消防試験研究センター), whatever its name says. */
const LEGAL_PERSON = /^(?:(?:一般|公益)(?:社団|財団)法人|独立行政法人|国立研究開発法人)\s*\S+$/u;
/** A charge or deposit the law imposes (受益者負担金, 預託制度, 発電側課金), a restriction (…報酬規制), a part of a tax (法人事業税 所得割). */
const DUTY = /受益者(?:負担金|分担金)|預託(?:制度|金)|課金(?:\s|[（(]|$)|規制(?:\s*[（(][^（）()]*[）)])*$/u;
const TAX_PART = /税\s*(?:所得割|資本割|付加価値割|均等割|種別割|標準税率|税率)/u;
/** A call for the manager or operator of a fund or a scheme (…ファンド・オブ・ファンズマネージャーの募集). */
const ROLE_CALL =
  /(?:マネージャー|マネジャー|ゲートキーパー|運営事業者|運営者|運営団体|実施団体|執行団体|実施主体|事務局|受託者|受託候補者)[）)]?(?:等)?(?:の|を)(?:募集|公募|選定)/u;
/** A budget (…畜産・酪農関係事業予算, 航空局予算): a document; a programme named with its budget (…事業 令和7年度補正予算) keeps its class. */
const BUDGET = /(?:関係(?:事業)?|局|省|庁)予算$|予算(?:の概要|案|要求)$/u;
/** A designation the state makes under a law (史跡・名勝・天然記念物指定制度, …法人 指定制度), with no kind upstream; a drug or device designated (オーファンドラッグ) gets support, so stays. */
const DESIGNATION = /指定制度$/u;
/** A policy debate (…保険適用議論 (骨太2024)). */
const DEBATE = /議論|論点|骨太/u;
/** The subsidies of a field together (農業振興関係補助金, GX関連補助金, 農林業関係の補助金など) or information on a topic (…に関する情報). */
const RELATED =
  /支援制度(?:と|及び|・)相談窓口|(?:関係|関連(?:する)?)(?:の)?(?:(?:補助|助成|支援|優遇)[・、])?(?:補助金|助成金|補助事業|補助制度|助成制度|優遇制度|支援策|支援制度)(?:など|等)?(?:\s*[（(][^（）()]*[）)])?$|(?:に関する|に対する)情報$|(?:制度等?|施策等?|事業|支援)(?:の|を|について(?:の)?)?(?:ご)?紹介(?:しています|します)?[。！!]?$/u;
/** A topic named alone (女性の活躍推進, 農福連携の推進, 新規就農者の確保): a section's page about it. */
const TOPIC = /^[^\s]{2,10}?(?:の)?(?:推進|活躍|確保|振興)$/u;

// Classes found in a second draw of 300 served records (part "served2"; decision 0305).
/** A body named by its acronym and, in brackets, its full name (J-FLEC(金融経済教育推進機構), JFOODO（日本食品海外プロモーションセンター）). */
const ACRONYM_BODY = /^[a-z0-9][a-z0-9-]*\s*[（(][^（）()]*(?:機構|センター|協会|財団|機関|法人)[）)]$/iu;
/** A regime of the tax law against avoidance or for groups (外国子会社合算税制, タックスヘイブン対策税制, グループ法人税制): a rule, not a measure. */
const TAX_RULE = /合算税制|タックスヘイブン|移転価格税制|過少資本税制|過大支払利子税制|グループ法人税制|グループ通算制度/u;
/** The tax authority's explanation pages (タックスアンサー, 通達, 質疑応答). */
const TAX_PAGE = /nta\.go\.jp\/(?:taxes\/shiraberu\/taxanswer|law\/)/u;
const TAX_FAVOUR = /税制|減税|控除|特例|優遇|免除|軽減|猶予|償却|還付|非課税|税額|損金|圧縮|繰越|繰戻|準備金|簡易課税|みなし|短縮/u;
/** The state's own stockpile (石油国家備蓄事業, レアメタル国家備蓄事業). */
const STOCKPILE = /備蓄(?:事業)?$/u;
/** A page of the subsidies the state or the prefecture runs, listed by a municipality (深谷市 国・県補助事業). */
const HIGHER_SUBSIDIES = /(?:^|\s)(?:国|県|都|道|府|国・県|国県)(?:の)?補助事業$/u;
/** A guide (企業立地ガイド, 起業ガイド): a page of pointers, not a programme. */
const GUIDE = /ガイド$/u;

// Classes found in a third draw of 300 served records (part "served3"; decision 0305).
/** A job the government fills (会計年度任用職員を募集します, …雇用職員募集): a posting, not a programme. */
const JOB_POSTING = /任用職員|職員(?:等)?(?:を|の)?募集|採用試験|採用選考/u;
/** A state of things reported (…補助金 実施状況): a notice. */
const STATUS_REPORT = /状況$/u;
/** A guideline (…安全ガイドライン（勝浦町版）, マネロン・テロ資金供与対策ガイドライン): soft law, whatever money it is about. */
const GUIDELINE = /ガイドライン(?:\s*[（(][^（）()]*[）)])*$/u;
/** What a prefecture does about a topic (ひょうごの農福連携の取組, ケアラー支援に関する県の取組): a page about it. */
const EFFORTS = /の取組み?$/u;

// Classes found in a fourth tuning draw of 400 served records (part "served5"; decision 0305).
/** A rule of the state: a ministry's notice (告示第683号), a tax benefit withdrawn or abolished (特例解除, 4号特例 廃止), an annual filing (年度更新), how the tax law treats something (税制扱い, 税務上の取扱い). */
const STATE_RULE = /告示(?:第[0-9０-９]+号)?|特例\s*(?:の)?(?:解除|廃止)|年度更新|(?:税制|税務|課税)(?:上の)?(?:扱い|取扱い?)/u;
/** A reform of a sector named as such (スタジアム・アリーナ改革): a policy. */
const REFORM = /改革(?:\s*[（(][^（）()]*[）)])*$/u;

// Classes found in a fifth tuning draw of 400 served records (part "served6"; decision 0305).
/** A press conference or its summary (…に関する記者発表の要旨), a body or desk being set up (…ファンドの設立及び…センターの開設): news. */
const PRESS = /記者発表|記者会見|要旨$|の(?:設立|開設)(?:について)?$/u;
/** A topic with its schemes in brackets (住宅(支援制度等)), a chart for finding subsidies (使える補助金チェックチャート): pages of pointers. */
const POINTERS = /[（(](?:各種)?(?:支援制度|補助制度|助成制度|支援策)等?[）)]$|チェック(?:チャート|シート|リスト)$/u;
/** A premium one pays (介護保険 第1号被保険者 保険料): a charge, not support. */
const PREMIUM = /保険料(?:\s*[（(][^（）()]*[）)])*$/u;

// Classes found in a sixth tuning draw of 400 served records (part "served7"; decision 0305).
/** A list of subsidies (補助金リスト), a navigator of support (とっとり産業支援ナビ), calls and subsidies together (公募・補助金等), a catalogue of measures (…支援策活用カタログ; not a subsidy's catalogue type, カタログ注文型), a package of support for businesses (…事業者支援パッケージ). */
const SUBSIDY_LIST = /(?:補助金|助成金|支援策)リスト|支援ナビ|^公募・補助金|(?:支援策|施策|制度)\S{0,4}カタログ|事業者支援パッケージ$/u;
/** A measure still being considered (…支援策（検討中）), a tax rate raised (軽減税率 17%引上げ): not a programme someone can use. */
const NOT_YET = /[（(]検討中[）)]$|税率\S*\s*\S*引き?上げ/u;

// Classes found in an eighth tuning draw of 220 served records (part "served11"; decision 0318).
/** A scheme announced for a later year (…交付金(令和9年度創設予定)), a system changing its method (…リファンド方式移行): news of a change, not a programme one can use now. */
const ANNOUNCED = /[（(][^（）()]*(?:創設|新設|導入)予定[）)]$|方式(?:へ(?:の)?)?移行$/u;
/** How a welfare service's providers are paid (就労継続支援A型 (基本報酬・スコア方式)): a fee rule; a fee addition (…加算) is paid to providers who do more, and stays. */
const FEE_RULE = /基本報酬|報酬(?:体系|算定(?:基準|構造)?)(?:$|\s|[（(・])/u;
/**
 * A type of service the welfare, disability and care-insurance laws define, named alone (就労定着支援, 児童発達支援事業所,
 * 看護小規模多機能型居宅介護 (看多機)): a category of provider the state pays, not a scheme one applies to; a subsidy or
 * scheme for such providers names its money or its project (訪問介護事業者経営改善支援事業費補助金). A project a
 * municipality runs that residents use directly (病児保育事業, 介護予防・日常生活支援総合事業) is no provider type and stays
 * (the labelling rule, labelled_records.md).
 */
const SERVICE_TYPE = new RegExp(
  `^(?:医療型|福祉型|居宅訪問型|地域密着型|介護予防)?(?:${[
    '居宅介護(?:支援)?',
    '重度訪問介護',
    '同行援護',
    '行動援護',
    '重度障害者等包括支援',
    '短期入所(?:生活介護|療養介護)?',
    '療養介護',
    '生活介護',
    '施設入所支援',
    '自立訓練',
    '就労(?:選択|移行|定着)支援',
    '就労継続支援[AB]?型?',
    '自立生活援助',
    '共同生活援助',
    '(?:計画|障害児)相談支援',
    '地域(?:移行|定着)支援',
    '児童発達支援',
    '放課後等デイサービス',
    '保育所等訪問支援',
    '障害児入所(?:施設|支援)',
    '訪問(?:入浴)?介護',
    '訪問看護',
    '訪問リハビリテーション',
    '居宅療養管理指導',
    '(?:認知症対応型)?通所介護',
    '通所リハビリテーション',
    '特定施設入居者生活介護',
    '福祉用具貸与',
    '特定福祉用具販売',
    '定期巡回・随時対応型訪問介護看護',
    '夜間対応型訪問介護',
    '(?:看護)?小規模多機能型居宅介護',
    '認知症対応型共同生活介護',
    '介護老人(?:福祉|保健)施設',
    '介護医療院',
    // The childcare services of the 子ども・子育て支援法 (decision 0325), with the benefit the law pays their providers.
    '(?:小規模|家庭的|事業所内|居宅訪問型)保育(?:事業)?(?:地域型保育給付)?',
    // A child-welfare provider type (児童自立生活援助事業, 自立援助ホーム; decision 0331).
    '自立援助ホーム',
    '児童自立生活援助',
    // The law names a service type …事業 too (就労選択支援事業(令和7年10月施行)): still the category (decision 0331).
  ].join('|')})(?:事業)?(?:事業所|事業者|施設)?$`,
  'u',
);
/** A regulation named as such (…認定制度 + 荷主行動規制, …特例業務 (ヘッジファンド規制)): the state's rule; money given (…規制関連経営安定資金) keeps a programme. */
const REGULATION = /規制(?!緩和|改革)/u;
const GIVEN_MONEY = /補助|助成|交付金|支援金|給付|奨励金|融資|貸付|資金|減税|控除|保険|保証/u;
/** A company's line of business (日本貨物航空 (NCA) / 航空貨物事業, エンジンMRO事業 (IHI / …)): an industry's 事業 is a firm's trade, not a scheme. */
const LINE_OF_BUSINESS = /(?:貨物|運送|輸送|旅客|航空|海運|鉄道|mro|卸売|小売|発電|通信|放送|倉庫|運航)事業(?:\s*[（(][^（）()]*[）)])*$/iu;
/** What place something has in a figure or a plan (事業系食品ロス 卸売業の位置付け（令和4年度）): a document. */
const POSITION = /の位置(?:付|づ)け$/u;
/** Support for a group, named generically (立地企業への優遇制度, 新規就農者向け支援施策, 福井県の事業者向け支援制度): a page of the schemes for them. */
const SUPPORT_FOR_GROUP =
  /(?:への|向け(?:の)?|に対する)(?:各種)?(?:優遇|支援|助成|補助)(?:[・、](?:優遇|支援|助成|補助))*(?:制度|施策|策|措置)(?:等|について)?$/u;
/** Two generic words of support joined (子育て支援・制度, 災害に関する支援・助成): a section's page, not a scheme's name. */
const GENERIC_PAIR = /(?:支援|助成|補助|相談|サービス|手当|給付)(?:・|、|と|及び|および)(?:制度|施策|支援策|サービス|支援|助成|補助|手当|相談)(?:等|など)?$/u;

// Classes found by reading the served catalogue's names after the rules above (labelled held-out records left out of every listing; decision 0318).
/** A measure marked as ended (DX投資促進税制（廃止）, …（受付終了）): news of its end; one marked with the year it will end (…[令和8年度廃止]) is still in force and stays. */
const ENDED = /[（(［[](?:廃止|廃止済み?|終了|受付終了|募集終了)[）)］\]]$/u;
/** A duty of an employer or operator (産業医選任義務（50人以上事業場）, …責任者選任): the law's rule. */
const DUTY_NAMED = /(?:選任)?義務(?:化|付け)?(?:\s*[（(][^（）()]*[）)])*$|選任$/u;
/** A standard of the state (…飼養保管・苦痛軽減基準, 労災認定基準（令和5年9月改正）, 区分支給限度基準額, …基準省令): a rule. */
const STANDARD = /基準額?(?:\s*[（(][^（）()]*[）)])*$|基準省令/u;
/** A government's package of policies (年収の壁・支援強化パッケージ, …対策支援策パッケージ): a page of measures; a programme named …パッケージ事業 names its scheme. */
const POLICY_PACKAGE = /パッケージ$/u;
/** A policy named with its plan or direction in brackets (就職氷河期世代支援（政府行動計画）, …（2026年4月方針）, …（5本柱）). */
const POLICY_BRACKET = /[（(][^（）()]*(?:行動計画|方針|本柱|戦略)[）)]$/u;
/** A document about a subject: a statement form (法人事業概況説明書), a practice note (…の実務), a market overview (…市場概要・主要事業者). */
const DOCUMENT_WORDS = /説明書|の実務$|市場概要|主要事業者$/u;
/** A report on a scheme (…実施状況報告の公表, …の実施状況及び効果検証) or the list of projects it funds (…支援事業の対象事業): a notice about it. */
const SCHEME_REPORT = /(?:効果検証|検証結果|報告の公表|の対象事業)$/u;
/** A page gathering a section's schemes (中小企業者等向け支援事業統合ページ, …（テクノスクール注目情報）). */
const GATHERING_PAGE = /(?:統合|まとめ)ページ$|[（(][^（）()]*注目情報[）)]$/u;
/** A bonus point in a programme's selection (…経営革新計画加点): a rule of that programme, not one of its own. */
const BONUS_POINT = /加点$/u;

// Classes found in a ninth tuning draw of 200 served records (part "served13"; decision 0325).
/** Measures named generically, whoever runs them in brackets (海外展開支援施策 (JCCI/METI/JETRO 連携)): a menu of schemes; the bare name is INDEX's. */
const MEASURES = /(?:支援)?施策(?:等)?$/u;
/** A machine's safety approval (無人航空機 機体認証制度, 型式認証, 耐空証明) or a pilot's licence (技能証明): permission to operate, not support. */
const MACHINE_APPROVAL = /機体認証|型式(?:認証|証明)|耐空証明|技能証明/u;
/** A plan filed under a named subsidy (「なりわい再建支援補助金」に係る復興事業計画): a step of that subsidy's procedure, not a scheme. */
const PLAN_OF_SUBSIDY = /(?:補助金|助成金|交付金)[」』]?(?:に係る|に関する|の)\S*計画$|(?:補助金|助成金|交付金)\s*[「『][^」』]*計画[」』]$/u;
/** A desk being set up (…に関する相談窓口の設置) or a one-stop desk (PPP/PFI ワンストップ窓口): a desk, as DESK (decision 0325, served14). */
const DESK_OPENED = /相談窓口(?:の)?(?:設置|開設)(?:について)?$|ワンストップ窓口$/u;
/** Two topics joined (男女共同参画・女性活躍推進): a section's page about them, as TOPIC. */
const TOPIC_PAIR = /^[^\s・]{2,10}・[^\s・]{2,10}?(?:の)?(?:推進|活躍|確保|振興)$/u;
/** The charge residents owe on joining a public work (農業集落排水事業 加入分担金, 受益者負担金): a charge, not a support. */
const JOINING_CHARGE = /(?:加入|受益者)(?:分担金|負担金)$/u;
/** News of a change to schemes (…脱炭素関連補助金の拡大, …制度の見直し): the schemes' own pages name them. */
const SCHEME_CHANGE = /(?:補助金|助成金|交付金|支援策|制度)の(?:拡大|拡充|延長|見直し)(?:について)?$/u;
/** A company the state founded, named alone (株式会社民間資金等活用事業推進機構（PFI推進機構）): a body; the money words name its trade. */
const STATE_COMPANY = /^株式会社\s*\S+(?:機構|公庫|銀行)(?:\s*[（(][^（）()]*[）)])*$/u;
/**
 * A public body's support service (decision 0325; issue 20 counts consultation services as programmes): a council or
 * consortium named with the support or project it runs (中小企業活性化協議会 (再生支援), 新輸出大国コンソーシアム スポット支援,
 * …コンソーシアム推進対策事業). A council named alone stays a committee, and so does a desk named as one (…相談窓口), which
 * issue 20 counts among the non-programmes whatever kind upstream gives it.
 */
const SERVICE_AFTER_BODY = /(?:協議会|コンソーシアム)(?!.*(?:協議会|コンソーシアム)).*(?:支援|事業|相談)/u;
const bodyService = (r: { name: string }): boolean => SERVICE_AFTER_BODY.test(r.name) && !DESK.test(r.name);
/** The products a register lists (地理的表示(GI)保護制度 登録産品, …認定製品一覧): products, not the registration one applies for. */
const REGISTERED_GOODS = /(?:登録|認定|認証)(?:産品|製品|商品)(?:一覧)?$/u;

// Classes found in an eleventh tuning draw of 200 served records (part "served16"; decision 0331).
/**
 * A trade certified or registered under a law (小型家電リサイクル法 認定事業者制度, 認定家賃債務保証業者制度): permission to
 * operate; a farmer or fisher certified (認定農業者制度) is certified for support, and stays.
 */
const CERTIFIED_OPERATOR = /認定事業者制度|(?:認定|登録)[^\s農漁林]{2,12}(?<![農漁林])業者制度$/u;
/** The bodies registered or designated to certify, inspect or examine (医療機器 登録認証機関(IRCB)制度, 指定確認検査機関): permission to operate. */
const REGISTERED_BODY = /(?:登録|指定)(?:認証|検査|試験|確認検査|検定|校正)機関/u;
/** What a grant's recipients file after it (…補助金」実績報告手続き, 企業化状況報告（…補助金等）): a page for those already granted. */
const AFTER_GRANT = /(?:実績|完了|状況)報告(?:手続き?)?(?:\s*[（(][^（）()]*[）)])*$|(?:財産処分|精算払|概算払|交付請求)(?:手続き?)?(?:について)?$/u;
/** Which of a public-interest or religious corporation's business is taxed (公益法人 収益事業以外 非課税, …墳墓地貸付 法人税非課税の特例): the tax law's scope, not a measure one applies for. */
const TAXABLE_SCOPE = /収益事業/u;

// Classes read in the served catalogue's names after the eleventh draw's rules (labelled held-out records left out of every listing; decision 0331).
/** News of what was done (3月26日より申請…の対応を開始しました。): a sentence that names no money is a notice; the programme's own page names it. */
const NEWS_SENTENCE = /(?:開始|更新|掲載|変更|追加|終了|実施)(?:しました|されました)[。.！!]?$/u;
/** A report published on what a grant funded (…交付金を活用した事業の概要等の公表, …の交付対象事業…の概要の公表します。). */
const PUBLISHED_REPORT = /の公表(?:します|しました)?[。.]?$/u;
/** A social insurance named as the system a rule belongs to (介護保険 区分支給限度基準額): no insurance given. */
const INSURANCE_SYSTEM = /(?:介護|医療|健康|雇用|労災|社会|年金)保険/gu;

const NOTICE =
  /採択(?:結果|者|事業者|案件|一覧|について|課題)|が開始されます[!！]?$|交付決定|閉鎖|開催しました|実施しません|中止|延期|返還|返納|報告会|知事会見|交付先の?決定|決定について|決定しました|を決定|受賞者|入賞者|審査結果|選定結果|説明会|セミナー|シンポジウム|開催(?:します|のお知らせ|について|概要)|措置命令|勧告|違反|意向調査|活用意向|調査について|実態調査|アンケート|パブリック・?コメント|御?意見(?:を)?募集|策定要請|連携協定|協定の?締結|の適用について|皆様へ|皆さまへ|方へ$|の状況|状況(?:について)?$|実績(?:を|の)公表|の指定について|一覧表|結果(?:について|の公表|を公表)|公表しました|事前告知|(?:採択|交付)?事業者(?:を|が)決定|公告$|経営統合|民営化|判決|訴訟|(?:認定|選考)結果|プロジェクト終了$|概算要求|所管予算|の考え方(?:について)?$|のポイント$|政策課題/u;
const NOTICE_KINDS = new Set(['rd_grant_result', 'subsidy_adoption_result', 'historical_transition']);

const FORM_DOCUMENT =
  /様式|記入例|申請書|誓約書|同意書|委任状|承諾書|エントリーシート|事務連絡|^別記\s*[0-9０-９第]|(?:交付|実施)要項|届出書|申立書|申出書|報告書|実績書|計画書|手引き?|ハンドブック|マニュアル|ガイドブック|パンフレット|リーフレット|チラシ|q\s*&\s*a|faq|よくある(?:ご)?質問|事例|白書|ホワイトペーパー|報告$|統計|市場規模|調査結果|要綱|要領|交付規則|交付規程|実施規則|規程$|料金表|単価表|標準賃金|(?:^|\s)jis\s|指導要領|\.pdf$/iu;
/** A plan or strategy of a government (not the business plan a programme certifies). */
/** A plan named by its edition (インフラシステム海外展開 (行動計画 令和7年版)). */
const PLAN_EDITION = /[（(][^（）()]*(?:計画|戦略|方針|ビジョン)[^（）()]*(?:年版|年度版|改訂)[^（）()]*[）)]$/u;
const PLAN_DOCUMENT = /(?:計画|プラン|ビジョン|方針|戦略|ロードマップ|大綱|構想)(?:[（(]案[）)])?(?:\s*(?:[0-9]{4}|第?[0-9.]+版|[（(][^（）()]*[）)]))*$/u;
/** A figure or a statistic: 水道管路 更新率 (令和4年度 0.65%), 全国公立文化施設 総数. */
const STATISTIC =
  /実施率|更新率|投票率|自給率|普及率|利用率|総数|件数|者数|局数|施設数|都市数|推移|実績(?:$|\s)|[0-9]+(?:\.[0-9]+)?\s*%|目標\s*[0-9]|市場規模|ランキング|データ$/u;
const BUSINESS_PLAN = /(?:導入|事業|経営|就農|承継|革新|向上|強化|活用|確保|継続|再生|再建)計画|認定/u;
const DOCUMENT_KINDS = new Set([
  'statistics',
  'survey_assessment',
  'economic_research',
  'reference_industry_positioning',
  'business_model_reference',
  'policy_budget_summary',
  'strategic_direction_roadmap',
  'national_basic_plan',
  'plan_framework',
  'regional_medical_vision',
]);

const PERMIT =
  /許可|認可|許認可|ライセンス$|免許(?!取得|税)|届出|届け出|登録(?:制度|申請|$|\s*[（(])|在留資格|在留カード|特定技能|ビザ|査証|検定|試験(?:$|\s*[（(])|(?:入札)?参加資格|適格|資格(?:取得)?$|転用申請|改正申請|指定申請|指定手続|承認申請制度|経営事項審査|営業(?:\s*[（(]|$)|風俗営業/u;
/** A licence category of a regulated business: 資金移動業 第三種, 金融商品取引業 第一種. */
const BUSINESS_LICENCE = /業\s*第[一二三四1-4]種/u;
/** Money that a licence-like name can still offer (狩猟免許取得支援, 試験手数料補助): then it is a programme. */
const MONEY = /補助|助成|交付金|支援金|給付金?|奨励金|補給金|融資|貸付|減免|免除|優遇|税制|控除|特例|支援(?!士)|促進/u;
const PERMIT_KINDS =
  /^(?:visa.*|regulation_permit|regulation_licensing|registration_system|organization_license|examination|language_examination|skill_examination|national_exam|national_qualification|qualification|mandatory_reporting|medical_system_reporting|supervisory_organization.*|administrative_card_system.*)$/u;

/** A law named as such: it ends the name, is cited in brackets or is amended; a programme built on it names its money (交付金制度). */
const LAW_NAME =
  /第[0-9０-９一二三四五六七八九十百]+条|施行令|施行規則|(?:法|法律|条例|政令|省令)(?:\s*[（(][^（）()]*[）)])*$|[（(][^（）()]*(?:法|法律|条例)[0-9０-９]*(?:条)?[）)]|法\s*第|法\S*\s*\S*改正|改正\s*[（(]|[（(][^（）()]*改正[）)]|罰則|^[^\s（(]{2,20}?法[\s・]/u;
const LAW =
  /第[0-9０-９一二三四五六七八九十百]+条|課税関係|タックスアンサー|施行令|施行規則|(?:法|法律|条例|政令|省令|規則)(?:\s*[（(][^（）()]*[）)])*$|法\s*第|(?:法|条例|規則|省令|政令)\s*(?:改正|改定)|改正\s*[（(]|[（(][^（）()]*改正[）)]|義務化|義務(?:$|\s)|規制(?!緩和.*(?:補助|支援))|原則$|ガイドライン|指針|自主規制|倫理綱領|基準$|ルール|源泉徴収/u;
const LAW_KINDS =
  /^(?:regulation.*|regulatory.*|guideline.*|legal_obligation.*|obligation|levy.*|operational_rule|operational_standard|policy_framework|quota_policy|policy|framework|enforcement_price_passthrough|bilateral_agreement.*|data_integration_framework)$/u;
/** A tax itself (a levy), not a tax measure in someone's favour. */
const TAX_ITSELF = /(?:(?<!納)税|諸税)(?:\s*[（(][^（）()]*[）)])*$/u;
const TAX_MEASURE = /税制|減税|控除|特例|優遇|免除|軽減|猶予|償却|還付|非課税|税額/u;

const COMMITTEE =
  /審議会|協議会|委員会|(?:連携|推進|戦略|対策|調整)会議$|推進本部|本部$|[（(][^（）()]*機関[）)]$|コンソーシアム|プロジェクトチーム|[（(]pt[）)]|推進室|研究会|検討会|有識者会議|懇談会|懇話会|官民連携プラットフォーム|gメン|ネットワーク|支援機関連携|(?:省|庁)\s+\S*(?:室|課|局)$/iu;
/** A body named alone: an association, a federation, a school, an office (日本弁護士連合会（日弁連）, 文化スポーツ部). */
const BODY =
  /^(?:(?:一般|公益)(?:社団|財団)法人|独立行政法人|国立研究開発法人|株式会社)\s*[^\s補助支援]+$|(?:協会|連合会|協同組合|組合連合会|企業団|大学校|学校|公社|機構|会議所|[^\s]{1,10}(?:部|課|局))(?:\s*[（(][^（）()]*[）)])*$/u;
const COMMITTEE_KINDS = /^(?:enforcement_body|industry_council|local_council.*|industry_organization|network_support)$/u;

/** Brands or companies listed (スマレジ/ユビレジ/Square), software, crowdfunding sites: products, not programmes. */
const PRODUCT =
  /[（(](?:[^（）()/\p{Script=Han}]+\/){2,}[^（）()/\p{Script=Han}]+[）)]|チェーン(?:\s|$)|クラウドファンディング(?!.*(?:補助|助成|支援|交付))|pos\b|saas|アプリ$|家計簿/iu;
const PRODUCT_KINDS = /^(?:tool|fund_platform)$/u;

const INDEX =
  /一覧|ポータル|まとめ|(?:補助金|助成金|支援策|制度)\S{0,4}\s*集約$|^(?:令和|平成)\s*[0-9０-９元一二三四五六七八九十]{1,3}\s*年度\s*(?:補助金|助成金|補助事業)$|案内ハブ|リンク集|目次|を受けたい|支援制度の紹介|施策の紹介|主要.*施策|(?:支援)?施策$|支援策$|各種|(?:支援|補助金?|助成|優遇)(?:等の|等)?情報|情報(?:を)?掲載|補助金等(?:の|支援制度|情報)|[（(]トップ\s*[/／]|(?:に対する|に関する|に関わる|に係る|のための|への)支援(?:策|施策|制度)?(?:について)?(?:\s*[（(][^（）()]*[）)])?$|補助金等$|^(?:[^\s]{0,12}支援)トップページ$|^(?:[^\s・]{1,8}・)+[^\s・]{1,8}支援$|^(?:\S{1,6}(?:都|道|府|県|市|区|町|村)の?\s*)?(?:主な|その他の?)?(?:企業|中小企業|事業者)?(?:補助金|助成金|補助事業|補助制度|補助|助成|支援|貸付金?|融資|支援制度|助成制度|支援策|優遇制度)(?:[・、]\s*(?:補助金|助成金|補助事業|補助制度|補助|助成|支援|貸付金?|融資|支援制度|助成制度|支援策|優遇制度|入札|公募事業))*(?:等|情報|の?ご?案内|について)?(?:\s*[（(][^（）()]*[）)])?$/u;
/** A site's category under a place (兵庫県／健康・医療・福祉), a topic page (手話のページ, 林業関連). */
const CATEGORY =
  /^(?:[^\s・]{1,4}・){1,3}[^\s・]{1,4}$|^[^\s／/]{1,8}(?:都|道|府|県|市|区|町|村)\s*[／/|｜：:]\s*\S+$|のページ$|関連$|^(?:[^\s・]{1,6}・)+[^\s・]{1,6}業$/u;
const INDEX_KINDS = new Set(['directory', 'portal_information']);
/** A published name that carried a site title or breadcrumb (names.ts removed it). */
const SITE_DECORATION = /[|｜/／>＞]|\s[-－–—]\s|ホームページ|公式サイト/u;
/** Words of a named scheme: what a category page never calls itself (事業承継, business succession, is a topic: 事業承継支援 | 福井県ホームページ is a category page). */
const NAMED_SCHEME = /事業(?!者|所|承継)|制度|対策|センター|窓口|認定|プロジェクト/u;

/**
 * Positive evidence of a programme where the upstream kind gives none (decision 0306): what a
 * business or a person receives besides money (BENEFIT): a project or scheme (…事業, 支援, 認定,
 * a programme, a centre, a desk), a service (matching, a platform, a space, a bank of
 * successors, rescue), a recognition (a competition, a minister's designation, a mark or card
 * one carries), payments by a fee addition (…加算) or a stabilisation measure (…安定対策), R&D
 * and training (技術開発, 人材育成), a plan one has certified (経営革新計画). A record with none
 * of these is a page about a topic, a fact or a policy.
 */
const SUPPORT_EVIDENCE =
  /事業(?!者|所|主体)|支援|援助|認定|認証|(?:指定|保護)制度|大臣指定|プロジェクト|プログラム|program|センター|窓口|サポート|コンサル|無料|買取|直接支払|宣誓|宣言|nisa|クレジット|非課税|派遣|施設|ホーム|シェルター|募集|公募|マッチング|matching|商談|プラットフォーム|スペース|レスキュー|パートナーシップ|大会|コンテスト|コンクール|甲子園|ヘルプ|(?:総合|緊急|安定)対策|医療費|(?:導入|事業|経営|就農|承継|革新|向上|強化|活用|確保|継続|再生|再建)計画|加算|アクセラレータ|accelerator|バンク|協力隊|提供|無償(?:交付|貸与|提供|譲渡|配布)|(?:技術|研究)開発|研究費|科研費|人材育成|\bsib\b|\bpfs\b|security action|メンバーズ/iu;
/** Support for doing something (免許取得支援, 設備導入支援, 購入支援): an offer, where 子育て支援 or スタートアップ支援 names a topic. */
const SUPPORT_FOR_ACT = /(?:取得|導入|購入|設置|整備|改修|開設|参入|転換|確保|移転|申請|受診|受講|利用|作成|策定)(?:等)?(?:の)?支援/u;
/** A prefecture's own site (www.pref.nagano.lg.jp, web.pref.hyogo.lg.jp): its crawl types every page of a support section `support`. */
const PREFECTURE_SITE = /^https?:\/\/(?:www\.|web\.)?pref\.[a-z]+\.(?:lg\.)?jp\//u;
/** A page announcing support (…を支援します！ | 福井県ホームページ): the programme's own page, however names.ts rephrased it. */
const ANNOUNCES_SUPPORT = /します[!！。]?(?:\s*[|｜].*)?$/u;
/** Upstream kinds that say only "support" or "information": they name no programme kind, so the name must. */
const GENERIC_KIND = /^(?:|support|support_program|information_service|awareness.*)$/u;

// ---------------------------------------------------------------------------
// Kinds

/** Upstream kinds -> the vocabulary, by pattern (first match). */
const KIND_MAP: [RegExp, ProgramKind][] = [
  [/credit_guarantee|保証/u, 'guarantee'],
  [/interest_subsidy/u, 'subsidy'],
  [/^(?:loan|financial_loan|scholarship_loan|kaigo_financing|commercialization_loan)|融資|貸付/u, 'loan'],
  [/^(?:equity|lp_investment|fund_equity|risk_money|loan_equity)|出資/u, 'investment'],
  [/insurance|mutual_aid|^nontax$|共済|保険/u, 'insurance'],
  [/^tax|_tax|税/u, 'tax_measure'],
  [/fee_reduction|fee_waiver|pct_fee|accelerated_examination|insurance_discount/u, 'fee_reduction'],
  [/certification|authorization|designation|^ip_|認定/u, 'certification'],
  [/consult|advisory|expert|coordinator|hotline|相談/u, 'consultation'],
  [/training|internship|vocational|研修/u, 'training'],
  [/award|competition|表彰/u, 'award'],
  [/research_grant|rd_grant|sbir|fellowship|フェローシップ|matching_fund|oda_grant|private_grant|^grant|_grant|incentive|助成/u, 'grant'],
  [
    /subsidy|補助|交付|support_payment|direct_payment|operating_subsidy|operation_grant|reimbursement|^benefit$|welfare_service|kaigo_addon|public_works|grant_point/u,
    'subsidy',
  ],
  [
    /^(?:support|support_program|支援事業|platform|matching_support|network_support|information_service|facility_service|service|partnership.*|委託事業|entrustment|consortium_support|startup_support_non_cash|startup_acceleration|co_creation|sales_channel|community.*|municipal_support|employment_support_service|rescue_service|awareness.*)$/u,
    'support_service',
  ],
];

/** The kind a name says (補助金 -> subsidy …), strongest words first. */
const NAME_KIND: [RegExp, ProgramKind][] = [
  [/保証(?!金)/u, 'guarantee'],
  [/利子補給|利子助成/u, 'subsidy'],
  [/融資|貸付|(?<![ドク])ローン|(?<!支援|協力|応援|奨励|給付)資金(?!援助)/u, 'loan'],
  [/出資|投資育成/u, 'investment'],
  [/共済|保険/u, 'insurance'],
  [/税制|減税|税額控除|控除|特別償却|納税猶予|非課税|課税の特例|税の特例/u, 'tax_measure'],
  [/減免|免除|料金?の?軽減/u, 'fee_reduction'],
  [/賞$|アワード|表彰|顕彰|グランプリ|コンテスト|コンクール/u, 'award'],
  [/補助|交付金|支援金|給付金?|奨励金|補給金|協力金|応援金|報奨金|手当|一時金/u, 'subsidy'],
  [/助成|研究費|フェローシップ|研究員|奨学/u, 'grant'],
  [/認定|認証/u, 'certification'],
  [/相談|専門家派遣|アドバイザー|窓口|診断/u, 'consultation'],
  [/研修|講座|塾|スクール|セミナー|キャンプ|育成事業|人材育成|訓練/u, 'training'],
];

const BROAD_KINDS = new Set<ProgramKind>(['support_service']);
/** Kinds a name states beyond doubt, and the words of money given outright that keep a subsidy a subsidy. */
const MONEY_KIND: [RegExp, ProgramKind][] = [
  [/税制|減税|税額控除|所得控除|特別償却|納税猶予|課税の特例/u, 'tax_measure'],
  [/融資|貸付|(?<![ドク])ローン/u, 'loan'],
  [/信用保証|債務保証/u, 'guarantee'],
  [/共済|保険/u, 'insurance'],
];
const GIVEN = /補助|助成|交付金|給付|奨励金|支援金|補給金|利子|保証料|掛金|保険料/u;

/** The normalised kind: the upstream kind when it maps to a specific value, else what the name says, else the broad upstream value. */
export function normaliseKind(programKind: string | null | undefined, name: string): { kind: ProgramKind | null; rule: string | null } {
  const raw = programKind?.trim() ?? '';
  const mapped = raw === '' ? null : (KIND_MAP.find(([re]) => re.test(raw))?.[1] ?? null);
  // A name that says tax, loan, guarantee or insurance and no money given outright corrects an upstream "subsidy" (事業承継税制 typed as a subsidy).
  const said = MONEY_KIND.find(([re]) => re.test(name))?.[1];
  if ((mapped === 'subsidy' || mapped === 'grant') && said && !GIVEN.test(name)) return { kind: said, rule: 'name' };
  if (mapped && !BROAD_KINDS.has(mapped)) return { kind: mapped, rule: 'kind_map' };
  const fromName = NAME_KIND.find(([re]) => re.test(name))?.[1] ?? null;
  if (fromName) return { kind: fromName, rule: 'name' };
  return mapped ? { kind: mapped, rule: 'kind_map' } : { kind: null, rule: null };
}

// ---------------------------------------------------------------------------
// Classes

/** The name without its bracketed parts: what the name says before listing details. */
const withoutBrackets = (s: string): string => s.replace(/[（(][^（）()]*[）)]/gu, ' ').trim();

type Rule = { name: string; cls: RecordClass; test: (r: Facts) => boolean };

interface Facts {
  published: string;
  name: string;
  kind: string;
  benefit: boolean;
  scheme: boolean;
  url: string;
}

/** First match wins: the order is the precedence of the rules. */
const RULES: Rule[] = [
  { name: 'debris', cls: 'debris', test: (r) => DEBRIS.test(r.name) || [...r.name].length < 3 || HEADER_CELLS.test(r.name) },
  { name: 'garbled', cls: 'debris', test: (r) => GARBLED.test(r.name) || CLAUSE.test(r.name) || (VENUE.test(r.name) && !r.benefit) },
  // A sentence cut from a page: it opens with a particle or asks the reader (…を検索していただきますようお願いします。).
  { name: 'fragment', cls: 'debris', test: (r) => FRAGMENT.test(r.name) },
  { name: 'link_label', cls: 'debris', test: (r) => LINK_LABEL.test(r.name) },
  { name: 'site_title_only', cls: 'debris', test: (r) => SITE_TITLE.test(r.name) },
  { name: 'procurement', cls: 'procurement', test: (r) => PROCUREMENT.test(r.published) || /^委託[（(]/u.test(r.kind) },
  { name: 'role_call', cls: 'procurement', test: (r) => ROLE_CALL.test(r.published) },
  { name: 'notice', cls: 'notice', test: (r) => NOTICE.test(r.published) || NOTICE_KINDS.has(r.kind) },
  // News left after cleaning (…中小企業向けお知らせ); a call announced as news (…募集のお知らせ) is its programme's page.
  { name: 'news', cls: 'notice', test: (r) => /お知らせ$/u.test(r.name) && !/募集|公募|受付/u.test(r.published) },
  // An event, or what a programme funded (…補助金活用事業) or who takes part in it (…の参加事業者).
  { name: 'event', cls: 'notice', test: (r) => EVENT.test(withoutBrackets(r.name)) || USES.test(r.name) },
  { name: 'debate', cls: 'reference', test: (r) => DEBATE.test(r.name) },
  { name: 'job_posting', cls: 'notice', test: (r) => JOB_POSTING.test(r.published) },
  { name: 'status_report', cls: 'notice', test: (r) => STATUS_REPORT.test(withoutBrackets(r.name)) },
  { name: 'state_rule', cls: 'law_provision', test: (r) => STATE_RULE.test(r.name) },
  { name: 'press', cls: 'notice', test: (r) => PRESS.test(r.name) },
  { name: 'premium', cls: 'law_provision', test: (r) => PREMIUM.test(r.name) && !/補助|助成|減免|軽減|控除|支援|免除/u.test(r.name) },
  { name: 'pointers', cls: 'index_page', test: (r) => POINTERS.test(r.name) || SUBSIDY_LIST.test(r.name) },
  { name: 'not_yet', cls: 'notice', test: (r) => NOT_YET.test(r.name) },
  // Decision 0318: a scheme announced for later, a fee rule, a service type of the welfare laws, a regulation, a firm's line of business, a position in a figure, support for a group named generically.
  { name: 'announced', cls: 'notice', test: (r) => ANNOUNCED.test(r.name) },
  { name: 'fee_rule', cls: 'law_provision', test: (r) => FEE_RULE.test(r.name) && !/加算/u.test(r.name) && !GIVEN_MONEY.test(r.name) },
  { name: 'service_type', cls: 'reference', test: (r) => SERVICE_TYPE.test(withoutBrackets(r.name).replace(/\s+/gu, '')) },
  { name: 'regulation', cls: 'law_provision', test: (r) => REGULATION.test(r.name) && !GIVEN_MONEY.test(r.name) },
  { name: 'line_of_business', cls: 'product', test: (r) => r.kind === '' && LINE_OF_BUSINESS.test(r.name) && !r.benefit },
  { name: 'position', cls: 'document', test: (r) => POSITION.test(withoutBrackets(r.name)) && !r.benefit },
  { name: 'support_for_group', cls: 'index_page', test: (r) => SUPPORT_FOR_GROUP.test(withoutBrackets(r.name)) },
  { name: 'generic_pair', cls: 'index_page', test: (r) => GENERIC_PAIR.test(withoutBrackets(r.name)) },
  { name: 'ended', cls: 'notice', test: (r) => ENDED.test(r.name) },
  { name: 'duty_named', cls: 'law_provision', test: (r) => DUTY_NAMED.test(r.name) && !GIVEN_MONEY.test(r.name) },
  // The social insurance a standard belongs to (介護保険 区分支給限度基準額) gives nothing (decision 0331).
  {
    name: 'standard',
    cls: 'law_provision',
    test: (r) => STANDARD.test(r.name) && !GIVEN_MONEY.test(r.name.replace(INSURANCE_SYSTEM, '')) && !/加算/u.test(r.name),
  },
  {
    name: 'policy_package',
    cls: 'index_page',
    test: (r) => r.kind === '' && POLICY_PACKAGE.test(withoutBrackets(r.name)) && !r.benefit && !/事業/u.test(r.name),
  },
  // A policy named a プログラム (対日直接投資促進プログラム 2025（5本柱）) offers nothing for the word (decision 0331).
  { name: 'policy_bracket', cls: 'document', test: (r) => r.kind === '' && POLICY_BRACKET.test(r.name) && !BENEFIT.test(r.name.replace(/プログラム/gu, '')) },
  { name: 'document_words', cls: 'document', test: (r) => DOCUMENT_WORDS.test(r.name) && !r.benefit },
  { name: 'scheme_report', cls: 'notice', test: (r) => SCHEME_REPORT.test(withoutBrackets(r.name)) },
  { name: 'gathering_page', cls: 'index_page', test: (r) => GATHERING_PAGE.test(r.name) },
  { name: 'bonus_point', cls: 'document', test: (r) => BONUS_POINT.test(r.name) },
  // A kind upstream that names a permission (visa, regulation_permit …) decides unless the name offers money outright.
  { name: 'permit_kind', cls: 'permit_procedure', test: (r) => PERMIT_KINDS.test(r.kind) && !/補助|助成|交付金|支援金|給付|融資|貸付/u.test(r.name) },
  { name: 'reform', cls: 'reference', test: (r) => r.kind === '' && REFORM.test(r.name) && !r.benefit },
  // A guideline upstream calls one (経営者保証に関するガイドライン 事業承継時の特則): soft law, whatever money it is about.
  { name: 'guideline_kind', cls: 'law_provision', test: (r) => /^guideline/u.test(r.kind) && !/補助|助成|交付金|支援金|給付/u.test(r.name) },
  { name: 'guideline', cls: 'law_provision', test: (r) => GUIDELINE.test(r.name) && !/補助|助成|交付金|支援金|給付/u.test(r.name) },
  { name: 'stockpile', cls: 'reference', test: (r) => r.kind === '' && STOCKPILE.test(r.name) },
  { name: 'attachment', cls: 'document', test: (r) => ATTACHMENT.test(r.published) },
  { name: 'budget', cls: 'document', test: (r) => BUDGET.test(withoutBrackets(r.name)) && !r.benefit },
  { name: 'plan_adopted', cls: 'document', test: (r) => PLAN_ADOPTED.test(r.name) && !BUSINESS_PLAN.test(r.name) },
  {
    name: 'form_document',
    cls: 'document',
    test: (r) => FORM_DOCUMENT.test(r.name) || FORM_DOCUMENT.test(r.published) || (DOCUMENT_KINDS.has(r.kind) && !r.benefit),
  },
  { name: 'business_licence', cls: 'permit_procedure', test: (r) => BUSINESS_LICENCE.test(r.name) },
  // Money words in brackets name a law's title (化学物質排出把握管理促進法), not an offer.
  { name: 'permit', cls: 'permit_procedure', test: (r) => (PERMIT.test(r.name) || PERMIT_KINDS.test(r.kind)) && !MONEY.test(withoutBrackets(r.name)) },
  { name: 'tax_itself', cls: 'law_provision', test: (r) => TAX_ITSELF.test(r.name) && !TAX_MEASURE.test(withoutBrackets(r.name)) },
  {
    name: 'designation',
    cls: 'law_provision',
    test: (r) => r.kind === '' && DESIGNATION.test(withoutBrackets(r.name)) && !r.benefit && !/支援(?!法人)|助成|医薬品|医療機器/u.test(r.name),
  },
  { name: 'tax_rule', cls: 'law_provision', test: (r) => TAX_RULE.test(r.name) },
  // The tax authority's explanation of a rule (役員報酬, 源泉徴収, 役員社宅): a measure in the taxpayer's favour names itself.
  { name: 'tax_explanation', cls: 'law_provision', test: (r) => TAX_PAGE.test(r.url) && !TAX_FAVOUR.test(r.name) },
  { name: 'tax_part', cls: 'law_provision', test: (r) => TAX_PART.test(r.name) && !TAX_MEASURE.test(withoutBrackets(r.name)) },
  // A business certified under a law to do what otherwise needs a licence (小型家電リサイクル法 認定事業者制度, 高圧ガス保安 認定事業者制度).
  { name: 'certified_operator', cls: 'permit_procedure', test: (r) => CERTIFIED_OPERATOR.test(r.name) && !MONEY.test(r.name) },
  { name: 'duty', cls: 'law_provision', test: (r) => DUTY.test(r.name) && !MONEY.test(r.name) && !/軽減|減額|認定制度/u.test(r.name) },
  {
    name: 'law_name',
    cls: 'law_provision',
    test: (r) => LAW_NAME.test(r.name) && !/交付金|補助|助成|給付|支援金/u.test(r.name) && !/制度|認定|支援/u.test(withoutBrackets(r.name)),
  },
  { name: 'law', cls: 'law_provision', test: (r) => (LAW.test(r.name) || LAW_KINDS.test(r.kind)) && !r.benefit && !/認定|交付金/u.test(r.name) },
  { name: 'statistic', cls: 'document', test: (r) => STATISTIC.test(r.name) && !r.benefit },
  // A system named with no kind upstream and no benefit, certification or support in its name: a rule of the state (選挙公報制度, 耐空証明制度).
  {
    name: 'regulatory_system',
    cls: 'law_provision',
    test: (r) =>
      r.kind === '' &&
      /制度(?:\s*[（(][^（）()]*[）)])*$/u.test(r.name) &&
      !r.benefit &&
      !/認定|認証|指定|支援|助成|保護|無償|交付|クレジット|nisa|fip/iu.test(r.name),
  },
  // A regulated line of business named alone (投資運用業, 少額短期保険業): a licence, not support.
  {
    name: 'business_category',
    cls: 'permit_procedure',
    test: (r) => r.kind === '' && /^[^\s]{2,12}(?<!事|産|工|農|林|漁|企)業$/u.test(r.name) && !MONEY.test(r.name),
  },
  // A survey under a call (a kind upstream): a commissioned contract; without one, a report.
  {
    name: 'survey_contract',
    cls: 'procurement',
    test: (r) => r.kind !== '' && /調査(?:・[^\s・]{1,4})*等?$/u.test(r.name) && !r.benefit && !/支援事業|補助/u.test(r.name),
  },
  // Survey and analysis work about a programme (…支援事業等の…運用に向けた調査・分析): the support words name its subject, not its offer.
  {
    name: 'survey_work',
    cls: 'procurement',
    test: (r) =>
      SURVEY_WORK.test(r.name) &&
      !BENEFIT.test(
        r.name
          .split(RELATION)
          .at(-1)!
          .replace(/^.*の(?=[^の]*$)/u, ''),
      ),
  },
  // A survey about something (…基金事業に関する広報戦略調査): the subject may name money, the work is a survey.
  {
    name: 'survey_about',
    cls: 'procurement',
    test: (r) => RELATION.test(r.name) && /調査(?:業務|事業)?$/u.test(r.name) && !BENEFIT.test(r.name.split(RELATION).at(-1)!),
  },
  { name: 'survey_document', cls: 'document', test: (r) => /調査$|[（(]情報提供[）)]$/u.test(r.name) && !r.benefit && !/支援事業|補助/u.test(r.name) },
  // One generic word of support (就職支援, 難病支援) under a broad kind: a topic page.
  { name: 'topic_page', cls: 'index_page', test: (r) => /^(?:support|)$/u.test(r.kind) && /^[^\s・]{1,5}支援(?:制度)?$|^[^\s]{1,4}・支援制度$/u.test(r.name) },
  { name: 'plan_document', cls: 'document', test: (r) => PLAN_DOCUMENT.test(r.name) && !BUSINESS_PLAN.test(r.name) && !r.benefit },
  { name: 'plan_edition', cls: 'document', test: (r) => PLAN_EDITION.test(r.name) && !r.benefit },
  { name: 'related_subsidies', cls: 'index_page', test: (r) => RELATED.test(r.name) || HIGHER_SUBSIDIES.test(r.name) },
  { name: 'efforts', cls: 'index_page', test: (r) => EFFORTS.test(r.name) && !/事業(?!者|所)|補助|助成|交付金/u.test(r.name) },
  { name: 'guide', cls: 'index_page', test: (r) => GUIDE.test(withoutBrackets(r.name)) && !r.benefit && !NAMED_SCHEME.test(r.name) },
  { name: 'desk', cls: 'committee', test: (r) => DESK.test(r.name) && !MONEY.test(r.name.replace(DESK, '')) && !bodyService(r) },
  // A body is the head of the name (…補助金審査委員会): the money words name what it reviews.
  { name: 'committee_head', cls: 'committee', test: (r) => /(?:委員会|審議会|協議会|連絡会議)$/u.test(r.name) && !bodyService(r) },
  // A government section named alone (スマート県庁推進課, 用地事業支援課): an office, not a scheme.
  { name: 'section', cls: 'committee', test: (r) => /^[^\s]{2,10}(?:課|局|室|部|係|班|グループ|G)$/u.test(r.name) && !BENEFIT.test(r.name) },
  {
    name: 'company_body',
    cls: 'committee',
    test: (r) =>
      /[（(]指定試験機関[）)]/u.test(r.name) ||
      (COMPANY_BODY.test(withoutBrackets(r.name)) && !r.benefit && !/公募|募集|事業(?!者|所)|プログラム/u.test(r.name)),
  },
  { name: 'acronym_body', cls: 'committee', test: (r) => r.kind === '' && ACRONYM_BODY.test(r.name) && !r.benefit },
  { name: 'legal_person', cls: 'committee', test: (r) => LEGAL_PERSON.test(r.name) && !r.benefit && !/事業(?!者|所)|制度|認定|認証|登録/u.test(r.name) },
  { name: 'committee', cls: 'committee', test: (r) => (COMMITTEE.test(r.name) || COMMITTEE_KINDS.test(r.kind)) && !r.benefit && !bodyService(r) },
  { name: 'body', cls: 'committee', test: (r) => BODY.test(r.name) && !r.benefit && !r.scheme },
  { name: 'product', cls: 'product', test: (r) => (PRODUCT.test(r.name) || PRODUCT_KINDS.test(r.kind)) && !r.benefit },
  { name: 'topic', cls: 'index_page', test: (r) => TOPIC.test(r.name) && !r.benefit && !NAMED_SCHEME.test(r.name) && /^(?:support|subsidy|)$/u.test(r.kind) },
  { name: 'index', cls: 'index_page', test: (r) => INDEX.test(r.published) || INDEX.test(r.name) || INDEX_KINDS.has(r.kind) },
  // A section's top page or a page of information on support (経営支援課トップ, 福祉助成事業情報), by the cleaned name.
  { name: 'index_name', cls: 'index_page', test: (r) => /(?:課|局|部|室)トップ$|^[^\s]{1,6}\sトップ$|(?:支援|補助|助成|優遇)\S{0,4}情報$/u.test(r.name) },
  // Two short words and nothing else (防災 緊急): a menu's labels, not a name.
  {
    name: 'menu_labels',
    cls: 'index_page',
    test: (r) => /^[^\s]{1,4}\s[^\s]{1,4}$/u.test(r.name) && /^(?:support|support_service|)$/u.test(r.kind) && !r.benefit && !r.scheme,
  },
  {
    name: 'category',
    cls: 'index_page',
    test: (r) => CATEGORY.test(r.name) && !NAMED_SCHEME.test(r.name) && (!r.benefit || /^(?:[^\s・]{1,4}・){1,3}[^\s・]{1,4}$/u.test(r.name)),
  },
  // No kind upstream and a name that names no money, no scheme and no call: a page about a topic (a fact, a policy, a place).
  { name: 'no_programme_evidence', cls: 'reference', test: (r) => r.kind === '' && !r.benefit && !r.scheme && !/支援|促進|プロジェクト/u.test(r.name) },
  // A page of a site whose name, without the site's title, names no money and no scheme: a category page.
  {
    name: 'category_page',
    cls: 'index_page',
    // A page announcing support (…を支援します！ | 福井県ホームページ) is the programme's page, however names.ts rephrased it.
    test: (r) =>
      SITE_DECORATION.test(r.published) && r.published !== r.name && !r.benefit && !NAMED_SCHEME.test(r.name) && !ANNOUNCES_SUPPORT.test(r.published),
  },
  // No programme kind upstream and no evidence in the name of anything one receives (decision 0306).
  { name: 'no_support_evidence', cls: 'reference', test: (r) => GENERIC_KIND.test(r.kind) && !r.benefit && !SUPPORT_EVIDENCE.test(r.name) },
  // A prefecture site's page under upstream `support`, whose only evidence is the word 支援 naming its topic (医療的ケア児等の
  // 支援について, 特別支援教育, スタートアップ支援): that source gives `support` to every page of its support sections (decision 0307).
  {
    name: 'prefecture_support_topic',
    cls: 'index_page',
    test: (r) =>
      r.kind === 'support' &&
      PREFECTURE_SITE.test(r.url) &&
      !r.benefit &&
      !NAMED_SCHEME.test(r.name) &&
      !SUPPORT_EVIDENCE.test(r.name.replace(/支援/gu, '')) &&
      !SUPPORT_FOR_ACT.test(r.name) &&
      !ANNOUNCES_SUPPORT.test(r.published),
  },
  // A page deep in a prefecture's site typed `subsidy` whose name says nothing one receives, no scheme, no kind (男女共同参画,
  // 農林水産業, 動画メニュー): a section's page; a city's `subsidy` with such a name is mostly a service (貸し出し, 農業体験), so stays (decision 0318).
  {
    name: 'prefecture_page_no_evidence',
    cls: 'index_page',
    test: (r) =>
      /^(?:subsidy|補助金|助成金|grant)$/u.test(r.kind) &&
      PREFECTURE_SITE.test(r.url) &&
      !/^https?:\/\/[^/]+\/?$/u.test(r.url) &&
      !r.benefit &&
      !r.scheme &&
      !SUPPORT_EVIDENCE.test(r.name) &&
      !NAME_KIND.some(([re]) => re.test(r.name)),
  },
  // Decision 0325, last so that no earlier class changes: measures named generically, a machine's approval, a subsidy's plan,
  // news of a change, a state company, registered products.
  { name: 'measures', cls: 'index_page', test: (r) => MEASURES.test(withoutBrackets(r.name)) && !GIVEN_MONEY.test(r.name) },
  { name: 'machine_approval', cls: 'permit_procedure', test: (r) => MACHINE_APPROVAL.test(r.name) && !GIVEN_MONEY.test(r.name) },
  { name: 'plan_of_subsidy', cls: 'document', test: (r) => PLAN_OF_SUBSIDY.test(r.name) },
  { name: 'scheme_change', cls: 'notice', test: (r) => SCHEME_CHANGE.test(r.name) },
  { name: 'state_company', cls: 'committee', test: (r) => STATE_COMPANY.test(r.name) },
  { name: 'registered_goods', cls: 'product', test: (r) => REGISTERED_GOODS.test(r.name) && !GIVEN_MONEY.test(r.name) },
  // Decision 0325 (served14), last for the same reason: a desk being set up, two topics joined, a joining charge.
  { name: 'desk_opened', cls: 'committee', test: (r) => DESK_OPENED.test(r.name) && !MONEY.test(r.name.replace(DESK_OPENED, '')) },
  {
    name: 'topic_pair',
    cls: 'index_page',
    test: (r) => TOPIC_PAIR.test(r.name) && !r.benefit && !NAMED_SCHEME.test(r.name) && /^(?:support|subsidy|)$/u.test(r.kind),
  },
  { name: 'joining_charge', cls: 'law_provision', test: (r) => JOINING_CHARGE.test(r.name) && !/軽減|減免|減額|補助|助成|免除/u.test(r.name) },
  // Decision 0331 (served16), last for the same reason: a body registered to certify, a grant's after-procedures, a corporation's taxable scope.
  { name: 'registered_body', cls: 'permit_procedure', test: (r) => REGISTERED_BODY.test(r.name) && !MONEY.test(r.name) },
  { name: 'after_grant', cls: 'notice', test: (r) => AFTER_GRANT.test(r.name) },
  { name: 'taxable_scope', cls: 'law_provision', test: (r) => TAXABLE_SCOPE.test(r.name) && !/補助|助成|交付金|給付|融資|資金|控除/u.test(r.name) },
  // Read in the served catalogue after them: news sentences, a report published.
  { name: 'news_sentence', cls: 'notice', test: (r) => NEWS_SENTENCE.test(r.name) && !GIVEN_MONEY.test(r.name) },
  { name: 'published_report', cls: 'notice', test: (r) => PUBLISHED_REPORT.test(r.name) },
];

export function classifyRecord(input: ClassifyInput, overrides: ReadonlyMap<string, ClassOverride> = new Map()): Classification {
  const name = input.name.normalize('NFKC').trim();
  const published = input.publishedName.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const kind = normaliseKind(input.programKind, name);
  const override = overrides.get(input.unified_id);
  if (override) {
    const k = override.program_kind === undefined ? kind : { kind: override.program_kind, rule: 'override' };
    return { recordClass: override.record_class, classRule: 'override', programKind: k.kind, kindRule: k.rule };
  }
  const facts: Facts = {
    published,
    name,
    kind: input.programKind?.trim() ?? '',
    benefit: BENEFIT.test(name),
    scheme: SCHEME.test(name),
    url: input.officialUrl ?? input.sourceUrl ?? '',
  };
  const rule = RULES.find((r) => r.test(facts));
  if (!rule) return { recordClass: 'programme', classRule: 'programme', programKind: kind.kind, kindRule: kind.rule };
  return { recordClass: rule.cls, classRule: rule.name, programKind: kind.kind, kindRule: kind.rule };
}

/** The `exclusion_reason` of a non-programme: `not_a_programme:<class>`. */
export const exclusionReasonFor = (recordClass: RecordClass): string => `not_a_programme:${recordClass}`;

/**
 * Tier and exclusion once the class is known: a non-programme is tier X,
 * excluded, with its class as the reason (an exclusion the dataset already
 * gave keeps its own reason); a programme keeps what the tier rules gave it.
 */
export function withClassExclusion<T extends { tier: string; excluded: boolean; exclusion_reason: string | null }>(given: T, recordClass: RecordClass): T {
  if (recordClass === 'programme') return given;
  const reason =
    given.excluded && given.exclusion_reason && given.exclusion_reason !== 'unclassified' ? given.exclusion_reason : exclusionReasonFor(recordClass);
  return { ...given, tier: 'X', excluded: true, exclusion_reason: reason };
}
