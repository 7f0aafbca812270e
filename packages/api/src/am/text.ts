// Small pure helpers of the entity-graph (/v1/am) features: identifiers,
// dates, Japanese article numbers, law-name variants. No I/O; unit-tested in
// test/am/text.test.ts.
import { sha256Hex } from '../hash.ts';
import { normalizeText } from '../catalog/text-query.ts';

export const RECORD_KINDS = [
  'program', 'tax_measure', 'certification', 'law', 'enforcement', 'case_study', 'adoption', 'authority',
  'corporate_entity', 'statistic', 'invoice_registrant', 'document',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Authority entity id: `AUTH-` + first 10 hex of SHA-256 of the normalised name. */
export function authorityId(name: string): string {
  return `AUTH-${sha256Hex(normalizeText(name)).slice(0, 10)}`;
}

/** Corporate entity id: `HB-` + the 13-digit corporate number. */
export const corporateId = (houjinBangou: string): string => `HB-${houjinBangou}`;

/**
 * Check digit of a 13-digit corporate number (法人番号): the first digit equals
 * 9 - (Σ Pn×Qn mod 9) over the 12-digit base, Pn counted from the lowest
 * digit, Qn = 1 for odd n and 2 for even n.
 */
export function houjinBangouValid(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  const base = value.slice(1);
  let sum = 0;
  for (let n = 1; n <= 12; n++) {
    const digit = Number(base[12 - n]);
    sum += digit * (n % 2 === 1 ? 1 : 2);
  }
  return Number(value[0]) === 9 - (sum % 9);
}

/** A real calendar date YYYY-MM-DD (not 2025-02-30). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** `YYYY-MM-DD` of an ISO timestamp or date-like string; null when there is none. */
export function datePart(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return m && isIsoDate(m[1]) ? m[1] : null;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `today` or a date; null when neither. */
export function resolveDate(value: string | undefined, fallback: string): string | null {
  if (value === undefined || value === '' || value.toLowerCase() === 'today') return fallback;
  return isIsoDate(value) ? value : null;
}

const KANJI_DIGITS: Record<string, number> = {
  〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9,
};
const KANJI_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/** 二十一 -> 21, 百二 -> 102, 1,000 style digits pass through; null when not a number. */
export function kanjiToNumber(text: string): number | null {
  const t = text.normalize('NFKC').trim();
  if (/^\d+$/.test(t)) return Number(t);
  if (t === '' || ![...t].every((c) => c in KANJI_DIGITS || c in KANJI_UNITS)) return null;
  let total = 0;
  let current = 0;
  for (const c of t) {
    if (c in KANJI_DIGITS) {
      current = current * 10 + KANJI_DIGITS[c];
    } else {
      total += (current === 0 ? 1 : current) * KANJI_UNITS[c];
      current = 0;
    }
  }
  return total + current;
}

export interface ArticleNumber {
  /** Main article number (第21条 -> 21). */
  main: number;
  /** Branch numbers (第21条の2の3 -> [2, 3]). */
  branches: number[];
  /** 附則 (supplementary provisions). */
  supplementary: boolean;
}

/**
 * Parse an article number as people write it: `第二十一条の二`, `21条の2`,
 * `第21条`, `21-2`, `21_2`, `21`, `附則第3条`. Paragraph suffixes (第1項) are
 * ignored. Null when no article number can be read.
 */
export function parseArticleNumber(input: string): ArticleNumber | null {
  let t = input.normalize('NFKC').replace(/\s+/g, '').trim();
  if (t === '' || t.length > 40) return null;
  const supplementary = /^附則/.test(t);
  t = t.replace(/^附則/, '').replace(/^第/, '');
  // Drop paragraph / item suffixes: 第1項, 第2号.
  t = t.replace(/第[^条]*[項号].*$/, '').replace(/(項|号).*$/, '');
  let m = /^([0-9〇零一二三四五六七八九十百千]+)条((?:の[0-9〇零一二三四五六七八九十百千]+)*)$/.exec(t);
  if (m) {
    const main = kanjiToNumber(m[1]);
    const branches = m[2].split('の').filter(Boolean).map(kanjiToNumber);
    if (main === null || branches.some((b) => b === null)) return null;
    return { main, branches: branches as number[], supplementary };
  }
  m = /^(\d+)(?:[-_の](\d+))?(?:[-_の](\d+))?$/.exec(t);
  if (m) {
    return { main: Number(m[1]), branches: [m[2], m[3]].filter(Boolean).map(Number), supplementary };
  }
  return null;
}

/** Sort key of an article number: 21 -> 21000000, 21の2 -> 21002000, 21の2の3 -> 21002003. */
export function articleSortKey(a: ArticleNumber): number {
  return a.main * 1_000_000 + (a.branches[0] ?? 0) * 1000 + (a.branches[1] ?? 0);
}

/** The dataset's article_key (`21_2`, `1_附3`, `57:57_3`) read as an article number. */
export function articleFromKey(key: string): ArticleNumber | null {
  const supplementary = key.includes('附');
  const head = key.split(':')[0].replace(/_附\d+$/, '');
  const parts = head.split('_').map(Number);
  if (parts.some((p) => !Number.isInteger(p))) return null;
  return { main: parts[0], branches: parts.slice(1), supplementary };
}

/** 第二十一条の二 style label of an article number. */
export function articleLabel(a: ArticleNumber): string {
  return `${a.supplementary ? '附則' : ''}第${a.main}条${a.branches.map((b) => `の${b}`).join('')}`;
}

/** Well-known short names of statutes (略称) -> formal title. */
export const LAW_SHORT_NAMES: Record<string, string> = {
  補助金適正化法: '補助金等に係る予算の執行の適正化に関する法律',
  補助金適化法: '補助金等に係る予算の執行の適正化に関する法律',
  租特法: '租税特別措置法',
  措置法: '租税特別措置法',
  経営強化法: '中小企業等経営強化法',
  中小企業経営強化法: '中小企業等経営強化法',
  労基法: '労働基準法',
  建基法: '建築基準法',
  独禁法: '私的独占の禁止及び公正取引の確保に関する法律',
  独占禁止法: '私的独占の禁止及び公正取引の確保に関する法律',
  下請法: '下請代金支払遅延等防止法',
  景表法: '不当景品類及び不当表示防止法',
  景品表示法: '不当景品類及び不当表示防止法',
  個人情報保護法: '個人情報の保護に関する法律',
  個情法: '個人情報の保護に関する法律',
  入管法: '出入国管理及び難民認定法',
  廃掃法: '廃棄物の処理及び清掃に関する法律',
  廃棄物処理法: '廃棄物の処理及び清掃に関する法律',
  金商法: '金融商品取引法',
  派遣法: '労働者派遣事業の適正な運営の確保及び派遣労働者の保護等に関する法律',
  労働者派遣法: '労働者派遣事業の適正な運営の確保及び派遣労働者の保護等に関する法律',
  育介法: '育児休業、介護休業等育児又は家族介護を行う労働者の福祉に関する法律',
  育児介護休業法: '育児休業、介護休業等育児又は家族介護を行う労働者の福祉に関する法律',
  農地中間管理事業法: '農地中間管理事業の推進に関する法律',
  電帳法: '電子計算機を使用して作成する国税関係帳簿書類の保存方法等の特例に関する法律',
  電子帳簿保存法: '電子計算機を使用して作成する国税関係帳簿書類の保存方法等の特例に関する法律',
  雇保法: '雇用保険法',
  安衛法: '労働安全衛生法',
  労働安全法: '労働安全衛生法',
  最賃法: '最低賃金法',
  宅建業法: '宅地建物取引業法',
  風営法: '風俗営業等の規制及び業務の適正化等に関する法律',
};

/**
 * The names a statute may be looked up by, in the order they are tried: the
 * input as given, its normalised form, the formal title of a known short
 * name, and `…に関する法律` <-> `…法` variants.
 */
export function lawNameVariants(input: string): string[] {
  const out: string[] = [];
  const add = (s: string | undefined | null): void => {
    const v = s?.normalize('NFKC').replace(/\s+/g, '').trim();
    if (v && !out.includes(v)) out.push(v);
  };
  add(input);
  const base = input.normalize('NFKC').replace(/\s+/g, '').replace(/[（(][^）)]*[）)]$/, '');
  add(base);
  add(LAW_SHORT_NAMES[base]);
  const long = /^(.+)に関する法律$/.exec(base);
  if (long) add(`${long[1]}法`);
  if (!/(法|令|規則|省令|法律)$/.test(base)) add(`${base}法`);
  return out;
}
