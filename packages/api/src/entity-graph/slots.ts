// Slot extraction for /v1/am/reason: prefecture, amount, industry, target
// and a corporate number out of a Japanese or English question. Pure;
// unit-tested in test/entity-graph/units.test.ts.
import { kanjiToNumber } from '../catalog/japanese-numbers.ts';
import { PREFECTURES, PREFECTURE_NAMES as PREFECTURE_NAME_LIST } from '@jp-support/vocab';

// The prefecture table and its alias normaliser are shared with the MCP package (@jp-support/vocab).
export { PREFECTURES, normalizePrefecture } from '@jp-support/vocab';
export const PREFECTURE_NAMES: ReadonlySet<string> = new Set(PREFECTURE_NAME_LIST);

const shortName = (name: string): string => (name === '北海道' ? name : name.replace(/[都府県]$/, ''));

/** First prefecture named in the text: full names first, then short forms (東京, 大阪) and romaji. */
export function extractPrefecture(text: string): { prefecture: string; matched: string } | null {
  let t = text.normalize('NFKC');
  let best: { prefecture: string; matched: string; at: number } | null = null;
  for (const [name] of PREFECTURES) {
    const at = t.indexOf(name);
    if (at >= 0 && (!best || at < best.at)) best = { prefecture: name, matched: name, at };
  }
  if (best) return { prefecture: best.prefecture, matched: best.matched };
  // Blank out full names so that 京都 is not found inside 東京都 (none matched here, but keep the rule explicit).
  for (const [name] of PREFECTURES) t = t.split(name).join(' ');
  for (const [name, romaji] of PREFECTURES) {
    const short = shortName(name);
    const at = t.indexOf(short);
    // 京都 inside 東京 (e.g. 東京都内) is not Kyoto.
    if (at >= 0 && !(short === '京都' && t[at - 1] === '東') && (!best || at < best.at)) best = { prefecture: name, matched: short, at };
    const m = new RegExp(`(?:^|[^a-z])${romaji}(?:$|[^a-z])`, 'i').exec(t);
    if (m && (!best || m.index < best.at)) best = { prefecture: name, matched: romaji, at: m.index };
  }
  return best ? { prefecture: best.prefecture, matched: best.matched } : null;
}

const UNIT_MAN: Record<string, number> = { 億: 10_000, 千万: 1000, 百万: 100, 万: 1 };

/** `500万円`, `1億円`, `1,000万`, `五百万円`, `3000000円` -> amount in 万円. */
export function extractAmount(text: string): { man_yen: number; matched: string } | null {
  const t = text.normalize('NFKC');
  const m =
    /([0-9][0-9,]*(?:\.[0-9]+)?|[〇一二三四五六七八九十百千]+)\s*(億|千万|百万|万)?\s*円/u.exec(t) ??
    /([0-9][0-9,]*(?:\.[0-9]+)?|[〇一二三四五六七八九十百千]+)\s*(億|千万|百万|万)/u.exec(t);
  if (!m) return null;
  const raw = m[1].replace(/,/g, '');
  const n = /^[0-9.]+$/.test(raw) ? Number(raw) : kanjiToNumber(raw);
  if (n === null || !Number.isFinite(n) || n <= 0) return null;
  const manYen = m[2] ? n * UNIT_MAN[m[2]] : n / 10_000;
  if (!Number.isFinite(manYen) || manYen > 1e9) return null;
  return { man_yen: Math.round(manYen * 100) / 100, matched: m[0] };
}

/** Industry keyword -> JSIC major (日本標準産業分類 大分類). */
export const INDUSTRY_KEYWORDS: readonly [string, string, string][] = [
  ['農業', 'A', '農業、林業'],
  ['林業', 'A', '農業、林業'],
  ['農家', 'A', '農業、林業'],
  ['畜産', 'A', '農業、林業'],
  ['漁業', 'B', '漁業'],
  ['水産', 'B', '漁業'],
  ['建設', 'D', '建設業'],
  ['工務店', 'D', '建設業'],
  ['製造', 'E', '製造業'],
  ['ものづくり', 'E', '製造業'],
  ['工場', 'E', '製造業'],
  ['電気', 'F', '電気・ガス・熱供給・水道業'],
  ['情報通信', 'G', '情報通信業'],
  ['ソフトウェア', 'G', '情報通信業'],
  ['it', 'G', '情報通信業'],
  ['システム開発', 'G', '情報通信業'],
  ['運輸', 'H', '運輸業、郵便業'],
  ['物流', 'H', '運輸業、郵便業'],
  ['運送', 'H', '運輸業、郵便業'],
  ['小売', 'I', '卸売業、小売業'],
  ['卸売', 'I', '卸売業、小売業'],
  ['商店', 'I', '卸売業、小売業'],
  ['販売店', 'I', '卸売業、小売業'],
  ['金融', 'J', '金融業、保険業'],
  ['不動産', 'K', '不動産業、物品賃貸業'],
  ['研究開発', 'L', '学術研究、専門・技術サービス業'],
  ['飲食', 'M', '宿泊業、飲食サービス業'],
  ['レストラン', 'M', '宿泊業、飲食サービス業'],
  ['宿泊', 'M', '宿泊業、飲食サービス業'],
  ['旅館', 'M', '宿泊業、飲食サービス業'],
  ['ホテル', 'M', '宿泊業、飲食サービス業'],
  ['美容', 'N', '生活関連サービス業、娯楽業'],
  ['観光', 'N', '生活関連サービス業、娯楽業'],
  ['教育', 'O', '教育、学習支援業'],
  ['学習塾', 'O', '教育、学習支援業'],
  ['介護', 'P', '医療、福祉'],
  ['医療', 'P', '医療、福祉'],
  ['福祉', 'P', '医療、福祉'],
  ['保育', 'P', '医療、福祉'],
  ['manufacturing', 'E', '製造業'],
  ['agriculture', 'A', '農業、林業'],
  ['farming', 'A', '農業、林業'],
  ['restaurant', 'M', '宿泊業、飲食サービス業'],
  ['construction', 'D', '建設業'],
  ['retail', 'I', '卸売業、小売業'],
  ['software', 'G', '情報通信業'],
  ['healthcare', 'P', '医療、福祉'],
];

export function extractIndustry(text: string): { jsic_major: string; label: string; matched: string } | null {
  const t = text.normalize('NFKC').toLowerCase();
  for (const [kw, major, label] of INDUSTRY_KEYWORDS) {
    const hit = /^[a-z]+$/.test(kw) ? new RegExp(`(?:^|[^a-z])${kw}(?:$|[^a-z])`).test(t) : t.includes(kw);
    if (hit) return { jsic_major: major, label, matched: kw };
  }
  return null;
}

/** Applicant kind keyword -> target code -> the target_types audiences (programme vocabulary terms) that admit it. */
export const TARGET_KEYWORDS: readonly [string, string, string[]][] = [
  ['個人事業主', 'sole_proprietor', ['個人事業主']],
  ['個人事業者', 'sole_proprietor', ['個人事業主']],
  ['フリーランス', 'sole_proprietor', ['個人事業主']],
  ['新規就農', 'new_farmer', ['新規就農者']],
  ['認定農業者', 'certified_farmer', ['農林漁業者']],
  ['農業法人', 'agri_corporation', ['農林漁業者']],
  ['農業者', 'farmer', ['農林漁業者', '新規就農者']],
  ['農家', 'farmer', ['農林漁業者', '新規就農者']],
  ['小規模事業者', 'small_business', ['小規模事業者', '中小企業']],
  ['中小企業', 'sme', ['中小企業', '小規模事業者', '法人']],
  ['スタートアップ', 'startup', ['スタートアップ', '創業予定者']],
  ['創業', 'startup', ['スタートアップ', '創業予定者']],
  ['npo', 'nonprofit', ['NPO']],
  ['大学', 'university', ['大学・研究機関', '学生']],
  ['法人', 'corporation', ['法人']],
  ['sole proprietor', 'sole_proprietor', ['個人事業主']],
  ['freelancer', 'sole_proprietor', ['個人事業主']],
  ['startup', 'startup', ['スタートアップ', '創業予定者']],
  ['farmer', 'farmer', ['農林漁業者', '新規就農者']],
  ['sme', 'sme', ['中小企業', '小規模事業者', '法人']],
];

export function extractTarget(text: string): { target: string; target_types: string[]; matched: string } | null {
  const t = text.normalize('NFKC').toLowerCase();
  for (const [kw, target, types] of TARGET_KEYWORDS) {
    const hit = /^[a-z ]+$/.test(kw) ? new RegExp(`(?:^|[^a-z])${kw}s?(?:$|[^a-z])`).test(t) : t.includes(kw);
    if (hit) return { target, target_types: types, matched: kw };
  }
  return null;
}

export function extractHoujinBangou(text: string): string | null {
  const m = /(?<!\d)(\d{13})(?!\d)/.exec(text.normalize('NFKC'));
  return m ? m[1] : null;
}

/** Content words left after slot words and function words are removed (for text matching). */
export function contentTerms(text: string, remove: string[]): string[] {
  let t = text.normalize('NFKC');
  for (const r of remove) if (r) t = t.split(r).join(' ');
  // Runs of kanji / katakana / latin letters of 2+ characters are the content words.
  const runs = t.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}|[A-Za-z][A-Za-z0-9]{1,}/gu) ?? [];
  const stop = new Set([
    '補助金',
    '助成金',
    '教えて',
    '場合',
    '対象',
    '制度',
    '申請',
    '確認',
    '利用',
    '活用',
    '支援',
    '条件',
    '要件',
    '併用',
    '締切',
    'いつ',
    '可能',
    '必要',
    '情報',
    '一覧',
    '方法',
    '内容',
    'the',
    'for',
    'and',
    'with',
    'what',
    'which',
    'are',
    'can',
    'how',
  ]);
  return [...new Set(runs.filter((r) => !stop.has(r.toLowerCase())))].slice(0, 6);
}
