// Rule-based intent classification for /v1/am/intent and /v1/am/reason.
// Transparent on purpose: every intent has a list of cues (Japanese
// substrings, English words or a regular expression) with a weight; the score
// of an intent is the sum of the weights of its cues found in the query, the
// confidence of the winner is its share of all scores. No network, no model.
// Unit-tested in test/entity-graph/units.test.ts.
import { normalizeText } from '../catalog/text-query.ts';
import { foldKana, searchNormalize } from '../catalog/search-text.ts';
import { amError } from './envelope.ts';
import { escapeRegExp } from '../lib/regexp.ts';

export const INTENT_IDS = [
  'search_subsidy',
  'check_eligibility',
  'exclusion_combo',
  'tax_measure',
  'loan_finance',
  'law_lookup',
  'enforcement_check',
  'deadline_schedule',
  'certification',
  'case_study',
] as const;
export type IntentId = (typeof INTENT_IDS)[number];

/** `ja`: substring of the NFKC/lower-cased query; `en`: whole English word(s); `re`: pattern. */
type Cue = { ja: string; w: number } | { en: string; w: number } | { re: RegExp; w: number; label: string };

export interface IntentDefinition {
  id: IntentId;
  name_ja: string;
  /** The /v1/am endpoint that answers this intent. */
  endpoint: string;
  cues: Cue[];
  sample_queries: string[];
}

const ja = (s: string, w: number): Cue => ({ ja: s, w });
const en = (s: string, w: number): Cue => ({ en: s, w });

export const INTENTS: readonly IntentDefinition[] = [
  {
    id: 'search_subsidy',
    name_ja: '補助金・助成金を探す',
    endpoint: '/v1/programs/search',
    cues: [
      ja('補助金', 3),
      ja('助成金', 3),
      ja('給付金', 2),
      ja('支援金', 2),
      ja('交付金', 2),
      ja('奨励金', 2),
      ja('支援制度', 2),
      ja('補助', 1),
      ja('探', 1),
      ja('ありますか', 1),
      ja('使える', 1),
      en('subsidy', 3),
      en('subsidies', 3),
      en('grant', 3),
      en('grants', 3),
      en('funding', 2),
      en('support program', 2),
      en('find', 1),
    ],
    sample_queries: ['東京都で使える設備投資の補助金を教えて', '大阪の飲食店向け助成金はありますか', 'subsidies for manufacturing SMEs in Aichi'],
  },
  {
    id: 'check_eligibility',
    name_ja: '受給資格・要件の確認',
    endpoint: '/v1/am/validate',
    cues: [
      ja('対象になる', 4),
      ja('対象になり', 4),
      ja('対象ですか', 4),
      ja('申請できる', 4),
      ja('申請できますか', 4),
      ja('要件', 3),
      ja('条件', 2),
      ja('該当', 2),
      ja('資格', 2),
      ja('もらえる', 2),
      ja('受けられる', 2),
      ja('対象', 1),
      en('eligible', 4),
      en('eligibility', 4),
      en('qualify', 4),
      en('requirements', 3),
      en('requirement', 3),
      en('can i apply', 3),
    ],
    sample_queries: ['個人事業主でもものづくり補助金の対象になりますか', '従業員5人の会社は申請できますか', 'am I eligible for the IT introduction subsidy?'],
  },
  {
    id: 'exclusion_combo',
    name_ja: '併用可否・組み合わせ',
    endpoint: '/v1/exclusions/check',
    cues: [
      ja('併用', 5),
      ja('併給', 4),
      ja('重複', 2),
      ja('組み合わせ', 3),
      ja('組合せ', 3),
      ja('同時に', 2),
      ja('一緒に', 1),
      ja('両方', 2),
      en('combine', 3),
      en('combined', 2),
      en('combination', 3),
      en('together', 1),
      en('stack', 2),
      en('mutually exclusive', 4),
      en('incompatible', 3),
      en('both', 1),
    ],
    sample_queries: [
      '経営開始資金と雇用就農資金は併用できますか',
      '補助金と税額控除を組み合わせられる？',
      'can I combine two subsidies for the same equipment?',
    ],
  },
  {
    id: 'tax_measure',
    name_ja: '税制優遇・税務ルール',
    endpoint: '/v1/am/tax_rule',
    cues: [
      ja('税制', 4),
      ja('税額控除', 5),
      ja('控除', 3),
      ja('減税', 4),
      ja('特別償却', 5),
      ja('即時償却', 5),
      ja('インボイス', 4),
      ja('適格請求書', 4),
      ja('消費税', 3),
      ja('法人税', 3),
      ja('所得税', 3),
      ja('電子帳簿', 3),
      ja('賃上げ促進税制', 5),
      ja('税', 1),
      en('tax', 3),
      en('taxes', 3),
      en('deduction', 3),
      en('depreciation', 3),
      en('invoice', 3),
      en('tax credit', 4),
    ],
    sample_queries: ['インボイス制度の2割特例はいつまで？', '中小企業の賃上げ促進税制の控除率', 'tax credit for wage increases'],
  },
  {
    id: 'loan_finance',
    name_ja: '融資・資金調達',
    endpoint: '/v1/am/loans',
    cues: [
      ja('融資', 5),
      ja('借入', 4),
      ja('借り入れ', 4),
      ja('借りたい', 4),
      ja('ローン', 4),
      ja('貸付', 4),
      ja('公庫', 3),
      ja('金利', 3),
      ja('保証人', 3),
      ja('担保', 3),
      ja('資金繰り', 4),
      ja('共済', 2),
      ja('資金調達', 3),
      en('loan', 5),
      en('loans', 5),
      en('financing', 3),
      en('borrow', 4),
      en('interest rate', 3),
      en('collateral', 3),
      en('guarantor', 3),
    ],
    sample_queries: ['無担保・無保証で借りられる創業融資', '日本政策金融公庫の設備資金の金利', 'startup loan without collateral'],
  },
  {
    id: 'law_lookup',
    name_ja: '法令・条文の参照',
    endpoint: '/v1/am/law_article',
    cues: [
      ja('法律', 3),
      ja('法令', 3),
      ja('条文', 5),
      ja('施行令', 3),
      ja('施行規則', 3),
      ja('省令', 2),
      ja('根拠法', 5),
      ja('法的根拠', 4),
      { re: /第[0-9〇一二三四五六七八九十百千]+条/u, w: 5, label: '第N条' },
      en('law', 3),
      en('laws', 3),
      en('statute', 4),
      en('article', 2),
      en('legal basis', 4),
      en('act', 1),
    ],
    sample_queries: ['補助金適正化法第17条の条文', '中小企業等経営強化法の根拠条文', 'text of article 17 of the subsidy act'],
  },
  {
    id: 'enforcement_check',
    name_ja: '行政処分・不正受給チェック',
    endpoint: '/v1/am/enforcement',
    cues: [
      ja('行政処分', 5),
      ja('処分', 2),
      ja('不正受給', 5),
      ja('不正', 2),
      ja('返還', 2),
      ja('指名停止', 5),
      ja('排除措置', 3),
      ja('課徴金', 4),
      ja('法人番号', 2),
      ja('違反', 2),
      ja('摘発', 3),
      ja('取引先', 1),
      { re: /(?<!\d)\d{13}(?!\d)/u, w: 2, label: '13-digit corporate number' },
      en('enforcement', 4),
      en('penalty', 3),
      en('sanction', 3),
      en('sanctions', 3),
      en('fraud', 3),
      en('debarment', 4),
      en('blacklist', 3),
      en('blacklisted', 3),
    ],
    sample_queries: [
      '法人番号1234567890123の会社に行政処分歴はある？',
      '取引先が補助金の不正受給をしていないか確認したい',
      'is this company under a debarment?',
    ],
  },
  {
    id: 'deadline_schedule',
    name_ja: '締切・公募スケジュール',
    endpoint: '/v1/am/open_programs',
    cues: [
      ja('締切', 5),
      ja('締め切り', 5),
      ja('〆切', 5),
      ja('期限', 3),
      ja('公募期間', 5),
      ja('いつまで', 4),
      ja('募集中', 4),
      ja('受付中', 4),
      ja('申請期間', 4),
      ja('スケジュール', 3),
      ja('公募', 2),
      ja('今月', 2),
      ja('来月', 2),
      en('deadline', 5),
      en('deadlines', 5),
      en('due', 2),
      en('open now', 4),
      en('schedule', 3),
      en('application window', 5),
      en('when', 1),
    ],
    sample_queries: ['今募集中の補助金の締切を教えて', '来月締切の助成金はある？', 'which grants have deadlines this month?'],
  },
  {
    id: 'certification',
    name_ja: '認定・認証制度',
    endpoint: '/v1/am/active_at',
    cues: [
      ja('認定制度', 5),
      ja('認定', 3),
      ja('認証', 3),
      ja('経営革新計画', 4),
      ja('経営力向上計画', 4),
      ja('先端設備', 3),
      ja('認定農業者', 4),
      ja('取得', 1),
      en('certification', 5),
      en('certified', 3),
      en('accreditation', 5),
      en('certificate', 3),
    ],
    sample_queries: ['経営革新計画の認定を受けるメリット', '認定農業者になるには', 'which certifications help SMEs get subsidies?'],
  },
  {
    id: 'case_study',
    name_ja: '採択・活用事例',
    endpoint: '/v1/am/related/{program_id}',
    cues: [
      ja('事例', 5),
      ja('採択事例', 5),
      ja('活用事例', 5),
      ja('成功例', 4),
      ja('他社', 2),
      ja('採択', 2),
      ja('実例', 4),
      en('case study', 5),
      en('case studies', 5),
      en('example', 2),
      en('examples', 2),
      en('success story', 5),
      en('adopted', 2),
    ],
    sample_queries: ['製造業のDX補助金の活用事例', '北海道の事業承継の成功例', 'case studies of SMEs using IT subsidies'],
  },
];

export interface IntentScore {
  intent_id: IntentId;
  intent_name_ja: string;
  score: number;
  confidence: number;
  matched_cues: string[];
}

export interface IntentResult {
  intent_id: IntentId;
  intent_name_ja: string;
  /** Winner's share of all scores (0 when nothing matched). */
  confidence: number;
  all_scores: IntentScore[];
  sample_queries: string[];
  matched: boolean;
}

const wordRes = new Map<string, RegExp>();
function englishRe(phrase: string): RegExp {
  let re = wordRes.get(phrase);
  if (!re) {
    re = new RegExp(`(?:^|[^a-z0-9])${escapeRegExp(phrase)}(?:$|[^a-z0-9])`);
    wordRes.set(phrase, re);
  }
  return re;
}

/** Score every intent; the query is NFKC-normalised and lower-cased first. */
export function classifyIntent(query: string): IntentResult {
  const q = normalizeText(query.slice(0, 2000));
  // The programme search's normalisation too (katakana folded to hiragana), so
  // いんぼいす finds the cue インボイス as search finds インボイス制度.
  const folded = searchNormalize(query.slice(0, 2000));
  const scores: IntentScore[] = INTENTS.map((intent) => {
    let score = 0;
    const matched: string[] = [];
    for (const cue of intent.cues) {
      let hit = false;
      let label: string;
      if ('ja' in cue) {
        label = cue.ja;
        hit = q.includes(cue.ja) || folded.includes(foldKana(cue.ja));
      } else if ('en' in cue) {
        label = cue.en;
        hit = englishRe(cue.en).test(q);
      } else {
        label = cue.label;
        hit = cue.re.test(q);
      }
      if (hit) {
        score += cue.w;
        matched.push(label);
      }
    }
    return { intent_id: intent.id, intent_name_ja: intent.name_ja, score, confidence: 0, matched_cues: matched };
  });
  const total = scores.reduce((s, x) => s + x.score, 0);
  for (const s of scores) s.confidence = total > 0 ? Math.round((s.score / total) * 1000) / 1000 : 0;
  // Stable sort: ties keep the declaration order above.
  const sorted = [...scores].sort((a, b) => b.score - a.score);
  const top = sorted[0];
  const matched = top.score > 0;
  const winner = matched ? top : scores[0];
  const def = INTENTS.find((i) => i.id === winner.intent_id)!;
  return {
    intent_id: winner.intent_id,
    intent_name_ja: winner.intent_name_ja,
    confidence: matched ? winner.confidence : 0,
    all_scores: sorted,
    sample_queries: def.sample_queries,
    matched,
  };
}

export function intentDefinition(id: IntentId): IntentDefinition {
  return INTENTS.find((i) => i.id === id)!;
}

/** The /v1/am/intent answer: the best intent, every score, sample queries. */
export function intent(query: string) {
  if (query.trim() === '') {
    return { intent_id: null, intent_name_ja: null, confidence: null, all_scores: [], sample_queries: [], error: amError('empty_input', 'query is empty') };
  }
  const r = classifyIntent(query);
  return {
    intent_id: r.intent_id,
    intent_name_ja: r.intent_name_ja,
    confidence: r.confidence,
    all_scores: r.all_scores,
    sample_queries: r.sample_queries,
    matched: r.matched,
    error: null,
  };
}
