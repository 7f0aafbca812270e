// Purposes, audiences and industries of a programme, at ingest, in the terms
// of the programme vocabulary (@jp-support/vocab, docs/decisions/0310-programme-vocabulary.md).
//
// Values the dataset or an overlay gives are kept, mapped onto the vocabulary
// (`equipment` -> 設備投資, `sole_proprietor` -> 個人事業主); a field left empty
// is filled by rules over what the record says of itself, strongest first:
// its name and description (the vocabulary's match words), its kind (a loan
// finances, a research grant funds research), its administering body, its
// purposes (a 新規就農 programme is for new farmers) and, last, the words of
// its page's address. Each filled field names the rules that gave its values
// in the record's provenance (`derived:tagging:name+kind`). A record that names
// people as its beneficiaries and no firm is for residents (rule `people`,
// docs/decisions/0315-people-named-as-beneficiaries.md). Pure functions:
// test/ingest/tagging.test.ts.
import { audiencesIn, industriesIn, normalizeAudience, normalizeIndustry, normalizePurpose, purposesIn } from '@jp-support/vocab';

export interface TaggingInput {
  name: string;
  description: string | null;
  programKind: string | null;
  authorityName: string | null;
  authorityLevel: string | null;
  url: string | null;
  fundingPurpose: readonly string[] | null;
  targetTypes: readonly string[] | null;
  jsicMajors: readonly string[] | null;
}

export interface TaggedField {
  values: string[];
  /** The provenance of the field: `derived:tagging:<rules>`, `mapped:vocabulary` or null when untouched. */
  how: string | null;
}

export interface Tagging {
  purposes: TaggedField;
  audiences: TaggedField;
  industries: TaggedField;
}

/** Values the bundled dataset and the jGrants overlay spell outside the vocabulary, and their terms. */
const PURPOSE_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  equipment: ['設備投資'],
  facility: ['設備投資'],
  施設建設: ['設備投資'],
  環境対応: ['省エネ・脱炭素'],
  人件費: ['雇用・人材確保'],
  labor: ['雇用・人材確保'],
  運転資金: ['資金繰り'],
  operating: ['資金繰り'],
  医療研究: ['研究開発'],
  seedling: ['農林水産業'],
  livestock_intro: ['農林水産業'],
  training: ['人材育成'],
  研修費: ['人材育成'],
  業務効率化: ['生産性向上'],
  創業支援: ['創業'],
  災害対応: ['災害復旧'],
  marketing: ['販路開拓'],
  sales_channel_development: ['販路開拓'],
  'IT/DX': ['IT・DX'],
  デジタル化: ['IT・DX'],
  other: [],
};

const AUDIENCE_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  sole_proprietor: ['個人事業主'],
  individual: ['個人事業主'],
  corporation: ['法人'],
  法人全般: ['法人'],
  民間企業: ['法人'],
  small_business: ['小規模事業者'],
  sme: ['中小企業'],
  startup: ['スタートアップ'],
  any: ['法人', '個人事業主'],
  大学院生: ['学生'],
  individual_farmer: ['農林漁業者'],
  certified_farmer: ['農林漁業者'],
  認定農業者: ['農林漁業者'],
  agri_corporation: ['農林漁業者'],
  農業法人: ['農林漁業者'],
  集落営農: ['農林漁業者'],
  個人農業者: ['農林漁業者'],
  若手農業者: ['農林漁業者'],
  farmer: ['農林漁業者'],
  certified_new_farmer: ['新規就農者'],
  認定新規就農者: ['新規就農者'],
  new_farmer: ['新規就農者'],
  aspiring_farmer: ['新規就農者'],
  非農家: ['新規就農者'],
  group: ['団体・組合'],
  succession: ['中小企業'],
  municipality: ['地方公共団体'],
  nonprofit: ['NPO'],
  employees_any: ['法人', '個人事業主'],
};

/** An audience of the jGrants employee band (`employees_le_20`): up to 20 is a small business. */
function audienceOfEmployeeBand(value: string): string[] | null {
  const m = /^employees_(le|ge)_(\d+)$/.exec(value);
  if (!m) return null;
  if (m[1] === 'ge') return Number(m[2]) >= 300 ? ['中堅企業'] : ['中小企業'];
  return Number(m[2]) <= 20 ? ['小規模事業者'] : ['中小企業'];
}

/** Each given value as terms: the spelling table, else the vocabulary's own spellings, else the terms its text names. */
function mapValues(
  values: readonly string[] | null,
  table: Readonly<Record<string, readonly string[]>>,
  normalize: (v: string) => string | null,
  textHits: (v: string) => { term: string }[],
  extra?: (v: string) => string[] | null,
): string[] {
  const out: string[] = [];
  for (const value of values ?? []) {
    const terms = table[value] ?? extra?.(value) ?? (normalize(value) ? [normalize(value)!] : textHits(value).map((h) => h.term));
    for (const t of terms) if (!out.includes(t)) out.push(t);
  }
  return out;
}

// What a kind of programme is for and who takes it up. Kinds are matched as
// words of the code (`research_grant`, `tax_deduction`, `loan_reconstruction`)
// so the dataset's codes and normalised kinds both read.
const KIND_RULES: readonly { kind: RegExp; purposes: string[]; audiences: string[] }[] = [
  { kind: /loan|融資|貸付|guarantee|保証/, purposes: ['資金繰り'], audiences: ['中小企業', '個人事業主'] },
  { kind: /tax|税/, purposes: ['税負担軽減'], audiences: ['中小企業'] },
  { kind: /research|sbir|rd_|研究/, purposes: ['研究開発'], audiences: ['大学・研究機関'] },
  { kind: /fellowship|scholarship|奨学/, purposes: ['教育・奨学'], audiences: ['学生'] },
  { kind: /training|研修|qualification|examination/, purposes: ['人材育成'], audiences: ['労働者・求職者'] },
  { kind: /consult|advisory|hotline|相談|matching/, purposes: ['経営改善'], audiences: ['中小企業'] },
  { kind: /startup/, purposes: ['創業'], audiences: ['創業予定者'] },
  { kind: /mutual_aid|共済/, purposes: ['経営改善'], audiences: ['小規模事業者'] },
  { kind: /welfare/, purposes: ['子育て・福祉'], audiences: ['住民'] },
  { kind: /equity|investment|fund/, purposes: ['資金繰り'], audiences: ['スタートアップ'] },
];

// Administering bodies whose remit names the purpose and the audience.
const AUTHORITY_RULES: readonly { authority: RegExp; purposes: string[]; audiences: string[] }[] = [
  { authority: /日本政策金融公庫|JFC|商工組合中央金庫|商工中金|信用保証協会/, purposes: ['資金繰り'], audiences: ['中小企業', '個人事業主'] },
  {
    authority: /科学技術振興機構|JST|日本学術振興会|JSPS|日本医療研究開発機構|AMED|NEDO|新エネルギー・産業技術/,
    purposes: ['研究開発'],
    audiences: ['大学・研究機関'],
  },
  { authority: /農林水産|農水|農政|林野庁|水産庁|農業会議|農業公社/, purposes: ['農林水産業'], audiences: ['農林漁業者'] },
  { authority: /観光/, purposes: ['観光'], audiences: ['中小企業'] },
  { authority: /文化庁|芸術文化振興|スポーツ庁/, purposes: ['文化・スポーツ'], audiences: ['団体・組合'] },
  { authority: /環境省|環境共創イニシアチブ|SII/, purposes: ['省エネ・脱炭素'], audiences: ['中小企業'] },
  { authority: /中小企業庁|中小企業基盤整備機構|中小機構|経済産業|商工会|よろず|産業振興|産業支援/, purposes: ['経営改善'], audiences: ['中小企業'] },
  { authority: /厚生労働省|労働局|ハローワーク|高齢・障害・求職者雇用支援機構/, purposes: ['雇用・人材確保'], audiences: ['中小企業'] },
  { authority: /国土交通省|住宅/, purposes: ['住宅'], audiences: ['住民'] },
  { authority: /こども家庭庁/, purposes: ['子育て・福祉'], audiences: ['住民'] },
];

// Who a purpose is for, when the record names no applicant.
const PURPOSE_AUDIENCES: Readonly<Record<string, readonly string[]>> = {
  創業: ['創業予定者'],
  新規就農: ['新規就農者'],
  農林水産業: ['農林漁業者'],
  住宅: ['住民'],
  '子育て・福祉': ['住民'],
  '防災・安全': ['住民'],
  環境保全: ['住民'],
  '教育・奨学': ['学生'],
  研究開発: ['中小企業'],
  地域活性化: ['団体・組合'],
  '文化・スポーツ': ['団体・組合'],
  人材育成: ['中小企業'],
};
/** The firm a people's purpose names when a firm applies (decision 0326): care and medicine's providers. */
const FIRM_OF_PURPOSE: Readonly<Record<string, readonly string[]>> = { '子育て・福祉': ['医療・福祉事業者'] };
/** Purposes whose applicants are people or their households, not firms (PURPOSE_AUDIENCES gives them 住民 or 学生; 環境保全 and 防災・安全 also serve firms). */
const CIVIC_PURPOSES: ReadonlySet<string> = new Set(['住宅', '子育て・福祉', '教育・奨学']);
// Purposes a household's programme names beside its civic one without making it a firm's: a home's tax credit
// (住宅ローン減税: 住宅, 税負担軽減), a loan (国の教育ローン: 教育・奨学, 資金繰り), an efficient home (省エネ住宅),
// a move to the country (移住者の住宅取得: 住宅, 地域活性化), a safe one (耐震). Decision 0328.
const HOUSEHOLD_NEUTRAL_PURPOSES: ReadonlySet<string> = new Set([
  '税負担軽減',
  '資金繰り',
  '省エネ・脱炭素',
  '地域活性化',
  '防災・安全',
  '環境保全',
  '災害復旧',
]);
// What an applicant implies the programme is for, when nothing else says.
const AUDIENCE_PURPOSES: Readonly<Record<string, readonly string[]>> = {
  農林漁業者: ['農林水産業'],
  新規就農者: ['新規就農'],
  創業予定者: ['創業'],
  スタートアップ: ['創業'],
  学生: ['教育・奨学'],
  '大学・研究機関': ['研究開発'],
  '労働者・求職者': ['人材育成'],
  '医療・福祉事業者': ['子育て・福祉'],
  NPO: ['地域活性化'],
  '団体・組合': ['経営改善'],
  // A programme for firms that names no purpose supports their business in general.
  中小企業: ['経営改善'],
  小規模事業者: ['経営改善'],
  個人事業主: ['経営改善'],
};

/** Every other purpose is a business purpose: its applicant is a firm. */
const BUSINESS_AUDIENCE = ['中小企業'];

// Words that make the applicant a business although no audience term is named
// (…事業者, …企業, 事業主, 店舗): the vocabulary keeps these generic words out of
// its match lists, where they would read every query as an SME's.
// 業者 covers 事業者 and the trades' 保証業者, 建設業者, but not the workers of 就業者 / 従業者.
const BUSINESS_WORDS = /(?<![就従])業者|企業|事業主|法人|会社|店舗|商店|商工|経営者|工場|事業所/;
/** 生活衛生 names the 生活衛生 trades (JFC's 生活衛生貸付 lends to barbers and inns): a firm is named, not people, though no applicant is. */
const TRADE_NAMED = /生活衛生/u;
/** A care or welfare provider named as the applicant (障害福祉サービス事業所, 介護職員…加算, 保育施設): not any firm. */
// 福祉医療機構 (WAM) lends to the providers of care and medicine, never to their patients.
// A medical facility's programme (医療施設等耐震整備事業, 医療DX推進体制整備加算) is its operator's, not its patients'.
const CARE_PROVIDER = /(?:介護|福祉|障害児?|障がい児?|保育|医療)[^\s、。]{0,12}(?:事業所|事業者|施設|職員|加算)|福祉医療機構|\bWAM\b/u;
const CARE_AUDIENCE = ['医療・福祉事業者'];
// A national body's 交付金 is the state's grant to prefectures and municipalities (地方創生推進交付金,
// 社会資本整備総合交付金, デジタル田園都市国家構想交付金, 地域脱炭素推進交付金): they apply, not the firms or residents
// its purpose serves. Not a direct payment or a price-stabilisation payment (直接支払交付金, 経営安定交付金,
// 牛マルキン), nor a farm's, forest's or fishery's 交付金, which producers apply for through their prefecture or
// town (decision 0334).
const STATE_GRANT = /交付金/u;
const PRODUCERS_GRANT = /直接支払|経営安定|マルキン|ナラシ|収入減少|農|漁|林|畜|水産|水田|耕作|食料|鳥獣|牛|豚|浜の/u;
const LOCAL_GOVERNMENTS = ['地方公共団体'];
const SHOPPING_STREET = /商店街|商店会/u;
const SHOP_OPENING = /空き?店舗|出店|開業|開店|創業|起業/u;
const ASSOCIATIONS = ['団体・組合'];
// Words that name a person or a household as the one a programme serves (a pregnancy line, a DV centre, a
// spouse deduction, a patients' or victims' service, a resident's grant): such a record is for 住民 unless it also
// names a firm or a firm's purpose. Bare 女性 is not one of them (女性活躍 subsidies pay employers), nor 障害者雇用
// or 個人事業 (an employer, a sole proprietor).
const PERSON_BENEFICIARY =
  /妊婦|妊産婦|妊娠|出産|子育て|ひとり親|母子|父子|寡婦|児童|こども|子ども|高齢者|配偶者|DV|被害者|患者|遺族|女性相談|女性のため|女性自立|生活困窮|ひきこもり|不登校|個人(?!事業|版)|住民|市民|県民|世帯|家庭|障害者(?!雇用)|障がい者(?!雇用)|移住|定住/u;
/** Purposes of a firm (or a farm, a lab): a record naming one of them serves its applicants, even when it names people too. */
const FIRM_PURPOSES: ReadonlySet<string> = new Set([
  '創業',
  '事業承継',
  '設備投資',
  'IT・DX',
  '販路開拓',
  '海外展開',
  '雇用・人材確保',
  '人材育成',
  '賃上げ',
  '研究開発',
  '新事業展開',
  '生産性向上',
  '観光',
  '農林水産業',
  '新規就農',
]);
const PEOPLE_AUDIENCE = ['住民'];
// Words of an employer (障害者雇用報奨金, 高齢者雇用, 事業主): the programme pays whoever employs the people it names, so the
// applicants those people imply (住民 from 子育て・福祉, 学生 from 教育・奨学) are not its applicants. 雇用保険 pays workers. Decision 0308.
const EMPLOYER_WORDS = /雇用(?!保険)|雇入|雇い入れ|事業主/u;
// A labour body's 助成金 is an employer's subsidy (雇用関係助成金: 障害者介助等助成金 pays the firm that employs, not
// the disabled worker); its 手当 and 給付金 pay people. Decision 0328.
const LABOUR_BODY = /厚生労働省|労働局|高齢・障害・求職者雇用支援機構/u;
// A 助成金 in courses (両立支援等助成金（介護離職防止支援コース）, キャリアアップ助成金 正社員化コース) is the shape of the
// labour bodies' employment subsidies, whoever's page it was read from (most course records name no authority). Decision 0326.
const EMPLOYMENT_SUBSIDY_COURSE = /助成金.*コース/u;
const isEmployerSubsidy = (name: string, authority: string): boolean =>
  (LABOUR_BODY.test(authority) && /助成金/u.test(name)) || EMPLOYMENT_SUBSIDY_COURSE.test(name);
/** People an employer's programme names as whom it hires or keeps (労働者, 求職者, 学生, residents), not as its applicants. */
const PEOPLE_APPLICANTS: ReadonlySet<string> = new Set(['住民', '学生', '労働者・求職者']);
/** A purpose whose applicant differs when the record is for people: 地域活性化 for people (移住支援金) pays residents, not groups. */
const PEOPLE_PURPOSE_AUDIENCES: Readonly<Record<string, readonly string[]>> = { 地域活性化: PEOPLE_AUDIENCE };
// Words of a grant to researchers (a foundation's 研究助成, AMED's 研究事業, a 研究費, 共同研究), not of a firm's
// R&D subsidy (研究開発補助金, 技術開発, 実証): with no firm named, its applicants are universities and institutes,
// not the firms the 研究開発 purpose otherwise implies (docs/decisions/0316-research-grants-for-researchers.md).
const RESEARCH_GRANT = /研究助成|研究継続助成|研究奨励|研究費|基礎科学|学術|研究事業|共同研究/u;
const RESEARCH_AUDIENCE = ['大学・研究機関'];
/** What a service for people is for when it names nothing else (a DV centre, a women's counselling line). */
const PEOPLE_PURPOSE = ['子育て・福祉'];
/** Purposes that only a firm has: a record for people does not take them from a loose word (相談, 女性) or its kind (consultation). */
const FIRM_ONLY_PURPOSES: ReadonlySet<string> = new Set(['経営改善', '働き方改革']);
/** A tax or inheritance measure for people (配偶者控除, 配偶者の税額軽減) lowers tax; it is not a welfare service. */
const TAX_WORDS = /税|相続|控除/u;
/** Words that name 働き方改革 loosely (女性, 育児 name people as often as a workplace): not evidence of a firm's purpose. */
const LOOSE_WORK_WORDS: ReadonlySet<string> = new Set(['女性', '育児']);
/** Match words of a firm's purpose that a household's or a person's programme uses too (設備, 機器, 定着, 就労). */
const LOOSE_FIRM_WORDS: ReadonlySet<string> = new Set(['設備', '機器', '機械', '施設整備', '施設改修', '施設の整備', '定着', '就労', '就職', '就業', '育成']);

// 育成 is training only when what is grown is people (人材育成, 担い手の育成, 後継者確保・育成, 指導者育成); 果樹産地育成,
// 園芸産地育成, 投資育成 or 脱炭素モデル企業育成 grow a production area, a farm business or a firm, not staff, and so do not
// give the 人材育成 purpose (nor, through it, the firms it implies) when the record names another purpose: a record
// naming none keeps it, an empty purpose being no better. Decision 0317.
const PEOPLE_GROWN =
  /(?:人材|人|者|手|家|員|士|師|リーダー|選手|生徒|学生|青少年|子ども|こども|児童|世代|技能|技術|クリエイター|アーティスト|オペレータ|ランナー)(?:等|の|を|確保|及び|・)*育成/u;
// 外国 names something foreign (外国人材, 外国人留学生, 外国税額控除), not a firm selling or expanding abroad: it gives
// 海外展開 only beside a word of selling or going abroad, or of a firm's rights there (外国出願, 外国意匠・商標). Decision 0308.
const ABROAD_BUSINESS = /輸出|販路|販売|市場|商談|出展|見本市|進出|展開|出願|取引|ビジネス|特許|実用新案|意匠|商標|知財|侵害/u;

// 産地 is a farming word (果樹産地, 園芸産地) except where the area makes crafts: 伝統産業産地, 伝統的工芸品の産地 are
// workshops, not farms (decision 0383: they were tagged 農林水産業, and so JSIC A, and ranked as farmers' programmes).
const CRAFT_AREA = /伝統産業|伝統的工芸|伝統工芸|工芸品/u;

/**
 * The purposes a record's text names, less 人材育成 named only by a 育成 that grows no people beside another
 * purpose, less 海外展開 named only by 外国, and less 農林水産業 named only by the 産地 of a craft.
 */
function purposesNamed(text: string): ReturnType<typeof purposesIn> {
  const hits = purposesIn(text);
  const growsNoPeople = (h: (typeof hits)[number]): boolean =>
    h.term === '人材育成' && h.matched === '育成' && !PEOPLE_GROWN.test(text) && !purposesIn(text.replaceAll('育成', '')).some((o) => o.term === '人材育成');
  const onlyForeign = (h: (typeof hits)[number]): boolean =>
    h.term === '海外展開' && !ABROAD_BUSINESS.test(text) && !purposesIn(text.replaceAll('外国', '')).some((o) => o.term === '海外展開');
  const craftArea = (h: (typeof hits)[number]): boolean =>
    h.term === '農林水産業' && h.matched === '産地' && CRAFT_AREA.test(text) && !purposesIn(text.replaceAll('産地', '')).some((o) => o.term === '農林水産業');
  const kept = hits.filter((h) => !onlyForeign(h) && !craftArea(h));
  return kept.some((h) => h.term !== '人材育成') ? kept.filter((h) => !growsNoPeople(h)) : kept;
}

/** Applicants that are firms: what a kind or a body implies, and what a record for people does not take from them. */
const BUSINESS_AUDIENCES: ReadonlySet<string> = new Set(['中小企業', '小規模事業者', '個人事業主', 'スタートアップ', '中堅企業', '法人']);

// The names of the programmes for every trade: ものづくり補助金 (ものづくり・商業・サービス生産性向上促進補助金) serves
// commerce and services as well as makers, 持続化補助金 and 省力化投資補助金 every small firm, a 工場・事業場
// programme any workplace. Their text is read without these names (ものづくり and 工場 do not make the record a
// manufacturer's), and an industry the dataset gives such a programme is set aside (decision 0329).
const FOR_EVERY_TRADE = /ものづくり(?:・商業・サービス|補助金)|持続化補助金|省力化投資補助金|工場・事業場/gu;
const isForEveryTrade = (name: string): boolean => name.search(FOR_EVERY_TRADE) >= 0;
// A worker's care of a family member (介護休業, 介護離職, 育児・介護休業法): every employer's matter, not the care trade's
// (decision 0329, amended).
const FAMILY_CARE = /(?:育児・)?介護(?:休業|休暇|離職|両立)/gu;

// Industry words of the vocabulary that say what a programme is about, not
// which industry may apply (IT導入 serves every industry): not used to tag.
const NOT_INDUSTRY_SIGNALS = new Set([
  'IT',
  'ICT',
  'システム',
  'アプリ',
  'コンテンツ',
  '研究',
  '研究開発',
  '学術',
  '住宅',
  'リフォーム',
  '耐震',
  '太陽光',
  '再生可能エネルギー',
  '保育',
  '交通',
  '学校',
  '教育',
  '空き家',
  '宅地',
  '賃貸',
  'デザイン',
  '加工',
  '試作',
  '自治体',
  '地方公共団体',
  '保険',
  '就農',
  '鳥獣',
  '映像',
  '出版',
  '通信',
  'バス',
  '商業',
  '店舗',
  '商店街',
  '水道',
  'ガス',
  '発電',
  // The lender or channel of a support (日本政策金融公庫, 〇〇銀行 農業ファンド, 信金中金 代理貸付, 資金融資, 大和証券財団),
  // not the applicant's trade: a support programme for the finance industry itself is not one the catalogue holds.
  '金融',
  '銀行',
  '信用金庫',
  '証券',
  // A lease is how a farm or a firm pays for its machines (農業用機械等リース支援事業, 漁船リース), not the leasing trade it
  // is in; リース is also inside フリースクール (decision 0308).
  'リース',
]);

// Words of a page's address (romaji path segments of local-government sites)
// that name its purpose and audience: the weakest evidence, used last.
const URL_RULES: readonly { path: RegExp; purposes: string[]; audiences: string[] }[] = [
  { path: /no(?:u)?(?:gyo|rin|sei|san|chi)|agri|farm|chikusan|suisan|ringyo|shinrin/, purposes: ['農林水産業'], audiences: ['農林漁業者'] },
  { path: /sogyo|sougyou|kigyo|startup/, purposes: ['創業'], audiences: ['創業予定者'] },
  { path: /koyo|koyou|rodo|roudou|shugyo|syuugyou|jinzai/, purposes: ['雇用・人材確保'], audiences: ['中小企業'] },
  { path: /kanko|kankou|tourism/, purposes: ['観光'], audiences: ['中小企業'] },
  { path: /jutaku|juutaku|sumai|akiya|kenchiku/, purposes: ['住宅'], audiences: ['住民'] },
  { path: /kosodate|kodomo|fukushi|kenko|kenkou|iryo|kaigo/, purposes: ['子育て・福祉'], audiences: ['住民'] },
  { path: /kankyo|kankyou|ondanka|energy|eco/, purposes: ['省エネ・脱炭素'], audiences: ['中小企業'] },
  { path: /bosai|bousai|saigai/, purposes: ['防災・安全'], audiences: ['住民'] },
  { path: /bunka|sports|geijutsu/, purposes: ['文化・スポーツ'], audiences: ['団体・組合'] },
  { path: /ijyu|iju|teiju|chiiki|machizukuri|shinko/, purposes: ['地域活性化'], audiences: ['住民'] },
  { path: /shoko|shoukou|sangyo|sangyou|chusho|chuusho|keiei|monozukuri|shogyo|shougyou/, purposes: ['経営改善'], audiences: ['中小企業'] },
  { path: /kyoiku|kyouiku|gakko|shogaku|syougaku/, purposes: ['教育・奨学'], audiences: ['学生'] },
];

class Collector {
  readonly values: string[] = [];
  readonly rules: string[] = [];
  add(rule: string, terms: readonly string[]): void {
    let added = false;
    for (const t of terms) {
      if (!this.values.includes(t)) {
        this.values.push(t);
        added = true;
      }
    }
    if (added && !this.rules.includes(rule)) this.rules.push(rule);
  }
  get empty(): boolean {
    return this.values.length === 0;
  }
  field(): TaggedField {
    return { values: this.values, how: this.rules.length > 0 ? `derived:tagging:${this.rules.join('+')}` : null };
  }
}

function urlPath(url: string | null): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    return `${u.hostname} ${u.pathname}`.toLowerCase();
  } catch {
    return '';
  }
}

// A bracket that widens who may apply (事業承継・引継ぎ補助金（農業者も対象）, （民泊含む）, (水産対象含む)) names an
// applicant besides those the programme is for, not the one it is for: its words do not tag the record (the first
// made a succession subsidy for every firm a farmers' programme). Decision 0383.
const ALSO_ELIGIBLE = /[（(][^（）()]*(?:も対象|も可|含む)[）)]/gu;

/** Purposes, audiences and industries of one record (the dataset's mapped, else derived). */
export function tagProgramme(p: TaggingInput): Tagging {
  const text = [p.name.replace(ALSO_ELIGIBLE, ' '), p.description ?? ''].join('\n');
  const kind = (p.programKind ?? '').toLowerCase();
  const authority = p.authorityName ?? '';
  const path = urlPath(p.url);
  const kindRule = kind === '' ? undefined : KIND_RULES.find((r) => r.kind.test(kind));
  const authorityRule = authority === '' ? undefined : AUTHORITY_RULES.find((r) => r.authority.test(authority));
  // A kind's or a body's applicants are a guess from what it mostly serves (a tax measure, 厚生労働省 -> firms): not for
  // a record whose name names only purposes of people (子育て・福祉, 住宅 …: 医療費控除, a pension, a pregnancy line).
  const namedHits = purposesNamed(text);
  const named = namedHits.map((h) => h.term);
  const civic = named.some((t) => CIVIC_PURPOSES.has(t)) && named.every((t) => CIVIC_PURPOSES.has(t) || HOUSEHOLD_NEUTRAL_PURPOSES.has(t));
  // A firm named: a business word, a trade, an employer, a care provider or a business audience.
  const employer = EMPLOYER_WORDS.test(text) || isEmployerSubsidy(p.name, authority);
  // The audiences the text names, read once for the rules below.
  const textAudiences = audiencesIn(text).map((h) => h.term);
  const namesFirm =
    BUSINESS_WORDS.test(text) || TRADE_NAMED.test(text) || employer || CARE_PROVIDER.test(text) || textAudiences.some((t) => BUSINESS_AUDIENCES.has(t));
  // A record that names people as its beneficiaries and no firm (nor a firm's purpose): its applicants are
  // residents, whatever its kind or its body mostly serves (厚生労働省, a consultation).
  const forPeopleOnly =
    PERSON_BENEFICIARY.test(text) &&
    !namesFirm &&
    !namedHits.some((h) => FIRM_PURPOSES.has(h.term) || (h.term === '働き方改革' && !LOOSE_WORK_WORDS.has(h.matched)));
  const urlRule = URL_RULES.find((r) => r.path.test(path));

  // Purposes: the dataset's, mapped; else the name, then the kind; body and address only when those say nothing.
  const givenPurposes = mapValues(p.fundingPurpose, PURPOSE_SPELLINGS, normalizePurpose, purposesIn);
  const purposes = new Collector();
  if (givenPurposes.length === 0) {
    const notFirmOnly = (terms: readonly string[]): readonly string[] => (forPeopleOnly ? terms.filter((t) => !FIRM_ONLY_PURPOSES.has(t)) : terms);
    purposes.add('name', notFirmOnly(namedHits.map((h) => h.term)));
    if (kindRule) purposes.add('kind', notFirmOnly(kindRule.purposes));
    if (purposes.empty && forPeopleOnly && !TAX_WORDS.test(text)) purposes.add('people', PEOPLE_PURPOSE);
    if (purposes.empty && authorityRule) purposes.add('authority', authorityRule.purposes);
    if (purposes.empty) {
      const named = mapValues(p.targetTypes, AUDIENCE_SPELLINGS, normalizeAudience, audiencesIn, audienceOfEmployeeBand);
      const audienceTerms = named.length > 0 ? named : textAudiences;
      purposes.add(
        'audience',
        audienceTerms.flatMap((t) => AUDIENCE_PURPOSES[t] ?? []),
      );
    }
    if (purposes.empty && urlRule) purposes.add('url', urlRule.purposes);
  }
  const purposeTerms = givenPurposes.length > 0 ? givenPurposes : purposes.values;

  const mappedAudiences = mapValues(p.targetTypes, AUDIENCE_SPELLINGS, normalizeAudience, audiencesIn, audienceOfEmployeeBand);
  // A household's programme (civic purposes only, no firm named) given only business audiences: the dataset's
  // generic corporation / sole_proprietor pair contradicts the record (空き家改修事業補助金 → sole_proprietor), so the
  // rules derive its applicants instead, and the provenance names the rule (`household`). Decision 0328.
  const household = civic && !namesFirm;
  const givenContradicted = household && mappedAudiences.length > 0 && mappedAudiences.every((t) => BUSINESS_AUDIENCES.has(t));
  const givenAudiences = givenContradicted ? [] : mappedAudiences;
  const audiences = new Collector();
  if (givenContradicted) audiences.rules.push('household');
  if (givenAudiences.length === 0) {
    // A firm named beside people only (商店街若者・女性新規出店, 両立支援企業登録制度, 介護サービス事業者による留学生への奨学金):
    // the people are whom the firm serves or hires; the firm applies (decision 0326). An employer's are never its applicants.
    const firmBesidePeople = namesFirm && textAudiences.length > 0 && textAudiences.every((t) => PEOPLE_APPLICANTS.has(t));
    audiences.add(
      'name',
      textAudiences.filter((t) => !((employer || firmBesidePeople) && PEOPLE_APPLICANTS.has(t))),
    );
    if (audiences.empty && CARE_PROVIDER.test(text)) audiences.add('care_provider', CARE_AUDIENCE);
    if (audiences.empty && p.authorityLevel === 'national' && STATE_GRANT.test(p.name) && !PRODUCERS_GRANT.test(p.name)) {
      audiences.add('state_grant', LOCAL_GOVERNMENTS);
    }
    // A shopping street's programme is its association's (商店街振興組合, 商店会: 商店街活性化補助金, 商店街災害復旧事業),
    // unless it names a shop that opens in it (空き店舗, 出店, 開業): that one is the shopkeeper's (decision 0334, amended).
    if (audiences.empty && SHOPPING_STREET.test(text) && !SHOP_OPENING.test(text)) audiences.add('shopping_street', ASSOCIATIONS);
    if (audiences.empty && BUSINESS_WORDS.test(text)) audiences.add('business_words', BUSINESS_AUDIENCE);
    // A tax measure on research costs (試験研究費) is for the firms that pay the tax, not for researchers.
    if (audiences.empty && RESEARCH_GRANT.test(text) && !TAX_WORDS.test(text) && !/tax|税/.test(kind)) audiences.add('research', RESEARCH_AUDIENCE);
    const forPeople = (terms: readonly string[]): readonly string[] => (household || forPeopleOnly ? terms.filter((t) => !BUSINESS_AUDIENCES.has(t)) : terms);
    if (audiences.empty && kindRule) audiences.add('kind', forPeople(kindRule.audiences));
    if (audiences.empty && authorityRule) audiences.add('authority', forPeople(authorityRule.audiences));
    // The purposes the record has and those its name names: a purpose with an applicant of its own
    // (農林水産業 -> 農林漁業者) speaks for the programme before the firms every other purpose implies.
    const allPurposes = [...purposeTerms, ...named];
    if (audiences.empty && allPurposes.length > 0) {
      // A firm's purpose beside a people's one (介護人材確保: 雇用・人材確保 and 子育て・福祉; 資源循環投資: 設備投資 and
      // 環境保全), no people named: a firm applies, of the trade the people's purpose names (a care provider for
      // 子育て・福祉). Decision 0326.
      // A home's purpose, an employer (障害者雇用調整金: any firm) or a household's words for things (設備, 機器,
      // 施設改修: 生ごみ処理機器, 住宅施設改修) keep the rules of before.
      const firmPurposeNamed =
        !PERSON_BENEFICIARY.test(text) &&
        !employer &&
        !allPurposes.includes('住宅') &&
        namedHits.some((h) => FIRM_PURPOSES.has(h.term) && !LOOSE_FIRM_WORDS.has(h.matched));
      const specific = allPurposes
        .flatMap(
          (t) => (forPeopleOnly ? PEOPLE_PURPOSE_AUDIENCES[t] : undefined) ?? (firmPurposeNamed ? FIRM_OF_PURPOSE[t] : undefined) ?? PURPOSE_AUDIENCES[t] ?? [],
        )
        .filter((t) => !((employer || firmPurposeNamed) && PEOPLE_APPLICANTS.has(t)));
      if (specific.length > 0) audiences.add('purpose', specific);
      else if (!forPeopleOnly) audiences.add('purpose', BUSINESS_AUDIENCE);
    }
    if (audiences.empty && forPeopleOnly) audiences.add('people', PEOPLE_AUDIENCE);
    if (audiences.empty && urlRule) audiences.add('url', urlRule.audiences);
  }

  const publishedIndustries = (p.jsicMajors ?? []).map((v) => normalizeIndustry(v)).filter((v): v is string => v !== null);
  const everyTrade = isForEveryTrade(p.name);
  const givenIndustries = everyTrade ? [] : publishedIndustries;
  const industries = new Collector();
  if (everyTrade && publishedIndustries.length > 0) industries.rules.push('every_trade');
  if (givenIndustries.length === 0) {
    const codes = industriesIn(text.replace(FOR_EVERY_TRADE, '').replace(FAMILY_CARE, ''))
      .filter((h) => !NOT_INDUSTRY_SIGNALS.has(h.matched))
      .map((h) => h.code);
    industries.add('name', codes);
    if (industries.empty && purposeTerms.includes('農林水産業')) industries.add('purpose', /漁|水産|養殖/.test(text) ? ['B'] : ['A']);
    if (industries.empty && purposeTerms.includes('新規就農')) industries.add('purpose', ['A']);
  }

  const mapped = (given: string[], original: readonly string[] | null): TaggedField => ({
    values: given,
    how: sameList(given, original) ? null : 'mapped:vocabulary',
  });
  return {
    purposes: givenPurposes.length > 0 ? mapped(givenPurposes, p.fundingPurpose) : purposes.field(),
    audiences: givenAudiences.length > 0 ? mapped(givenAudiences, p.targetTypes) : audiences.field(),
    industries: givenIndustries.length > 0 ? mapped(unique(givenIndustries), p.jsicMajors) : industries.field(),
  };
}

const unique = (values: string[]): string[] => [...new Set(values)];
const sameList = (a: readonly string[], b: readonly string[] | null): boolean => b !== null && a.length === b.length && a.every((v, i) => v === b[i]);
