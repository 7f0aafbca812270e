// One jGrants detail (shape.ts checked its shape) → the fields of our
// programme record it can supply, with their provenance. Values that do not
// make sense make the record malformed (reported, skipped), never guessed.
import { PREFECTURES } from '@jp-support/vocab';
import type { JgrantsDetail } from './shape.ts';
import { httpUrlOrNull } from '../../lib/untrusted-text.ts';

export const JGRANTS_PORTAL = 'https://www.jgrants-portal.go.jp/subsidy/';

/** The programme fields a jGrants record supplies (null: it says nothing about it). */
export interface JgrantsFields {
  primary_name: string;
  application_window: { start: string | null; end: string | null; start_at: string | null; end_at: string | null; source: 'jgrants' } | null;
  amount_max_man_yen: number | null;
  /** The single prefecture, when the record names exactly one. */
  prefecture: string | null;
  /** Every prefecture named (empty for 全国). */
  prefectures: string[];
  nationwide: boolean;
  funding_purpose: string[];
  jsic_majors: string[];
  target_types: string[];
  official_url: string | null;
  source_url: string;
  authority_name: string | null;
  /** What the programme is, in jGrants' words: catch phrase and detail text (HTML removed), or null. */
  description: string | null;
}

export type Mapped = { ok: true; fields: JgrantsFields; warnings: string[] } | { ok: false; reasons: string[] };

const PREFECTURE_NAMES = new Set(PREFECTURES.map(([name]) => name));

/** JSIC (日本標準産業分類) majors by the names jGrants uses for its industry filter. */
const JSIC_BY_NAME: Readonly<Record<string, string>> = {
  '農業，林業': 'A',
  漁業: 'B',
  '鉱業，採石業，砂利採取業': 'C',
  建設業: 'D',
  製造業: 'E',
  '電気・ガス・熱供給・水道業': 'F',
  情報通信業: 'G',
  '運輸業，郵便業': 'H',
  '卸売業，小売業': 'I',
  '金融業，保険業': 'J',
  '不動産業，物品賃貸業': 'K',
  '学術研究，専門・技術サービス業': 'L',
  '宿泊業，飲食サービス業': 'M',
  '生活関連サービス業，娯楽業': 'N',
  '教育，学習支援業': 'O',
  '医療，福祉': 'P',
  複合サービス事業: 'Q',
  'サービス業（他に分類されないもの）': 'R',
  '公務（他に分類されるものを除く）': 'S',
  分類不能の産業: 'T',
};
/** Punctuation-blind key: jGrants writes both 、 and ， and ASCII commas. */
const industryKey = (s: string) => s.replace(/[，、,・\s]/g, '').replace(/[（(].*?[)）]/g, '');
const JSIC_BY_KEY = new Map(Object.entries(JSIC_BY_NAME).map(([name, letter]) => [industryKey(name), letter]));

/** jGrants' multi-value fields separate values with " / ". */
const splitList = (s: string | null | undefined): string[] =>
  (s ?? '')
    .split(/\s*[/／]\s*/)
    .map((v) => v.trim())
    .filter(Boolean);

/** An ISO date-time → its date and time in Japan (UTC+9, no daylight saving). */
export function jstDateTime(value: string): { date: string; at: string } | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) return null;
  const ms = Date.parse(/[T ]/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value.replace(' ', 'T')}+09:00` : value);
  if (Number.isNaN(ms)) return null;
  const jst = new Date(ms + 9 * 3600_000).toISOString();
  return { date: jst.slice(0, 10), at: `${jst.slice(0, 19)}+09:00` };
}

/** target_number_of_employees → a target type ("employees_le_20", "employees_any"). */
function employeeBand(value: string | null | undefined): string | null {
  if (!value) return null;
  if (/制約なし|制限なし|問わない/.test(value)) return 'employees_any';
  const le = /(\d+)\s*名?以下/.exec(value);
  if (le) return `employees_le_${le[1]}`;
  const ge = /(\d+)\s*名?以上/.exec(value);
  if (ge) return `employees_ge_${ge[1]}`;
  return null;
}

/** Longest description kept (characters): enough for search and a summary, not a copy of the call for proposals. */
export const DESCRIPTION_MAX = 2000;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML (jGrants writes `detail` as HTML) → plain text: tags dropped, block ends as line breaks, entities decoded, spaces collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] !== '#') return ENTITIES[code.toLowerCase()] ?? whole;
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : ' ';
    })
    .split('\n')
    .map((line) => line.replace(/[ \t\u3000\r\f\v]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** The catch phrase and the detail text as one description, cut at DESCRIPTION_MAX characters. */
export function descriptionOf(d: Pick<JgrantsDetail, 'subsidy_catch_phrase' | 'detail'>): string | null {
  const parts = [d.subsidy_catch_phrase, d.detail].map((v) => (v ? htmlToText(v) : '')).filter((v) => v !== '');
  if (parts.length === 0) return null;
  const text = [...new Set(parts)].join('\n');
  const chars = [...text];
  return chars.length <= DESCRIPTION_MAX ? text : `${chars.slice(0, DESCRIPTION_MAX - 1).join('')}…`;
}

export function mapDetail(d: JgrantsDetail): Mapped {
  const reasons: string[] = [];
  const warnings: string[] = [];
  const title = d.title.trim();
  if (title === '') reasons.push('title is empty');
  let start = null;
  let end = null;
  if (d.acceptance_start_datetime !== null) {
    start = jstDateTime(d.acceptance_start_datetime);
    if (!start) reasons.push(`acceptance_start_datetime is not a date-time: ${JSON.stringify(d.acceptance_start_datetime)}`);
  }
  if (d.acceptance_end_datetime !== null) {
    end = jstDateTime(d.acceptance_end_datetime);
    if (!end) reasons.push(`acceptance_end_datetime is not a date-time: ${JSON.stringify(d.acceptance_end_datetime)}`);
  }
  if (start && end && start.at > end.at) reasons.push('acceptance window ends before it starts');
  if (d.subsidy_max_limit !== null && (!Number.isFinite(d.subsidy_max_limit) || d.subsidy_max_limit < 0)) {
    reasons.push(`subsidy_max_limit is not an amount: ${d.subsidy_max_limit}`);
  }
  const areas = splitList(d.target_area_search);
  const nationwide = areas.includes('全国');
  const prefectures = areas.filter((a) => PREFECTURE_NAMES.has(a));
  for (const a of areas) if (a !== '全国' && !PREFECTURE_NAMES.has(a)) warnings.push(`target_area_search value not a prefecture: ${a}`);
  const jsic: string[] = [];
  for (const name of splitList(d.industry)) {
    const letter = JSIC_BY_KEY.get(industryKey(name));
    if (letter) {
      if (!jsic.includes(letter)) jsic.push(letter);
    } else warnings.push(`industry not in JSIC: ${name}`);
  }
  if (reasons.length > 0) return { ok: false, reasons };
  // Served as a link and written into calendars and exports: only http(s) is kept.
  const officialUrl = httpUrlOrNull(d.front_subsidy_detail_page_url);
  if (d.front_subsidy_detail_page_url?.trim() && !officialUrl) warnings.push('front_subsidy_detail_page_url is not an http(s) URL: dropped');
  const band = employeeBand(d.target_number_of_employees);
  // 0 is how jGrants writes "no upper limit given".
  const amount = d.subsidy_max_limit ? Math.round(d.subsidy_max_limit / 100) / 100 : null;
  const portal = `${JGRANTS_PORTAL}${encodeURIComponent(d.id)}`;
  return {
    ok: true,
    warnings,
    fields: {
      primary_name: title,
      application_window:
        start || end ? { start: start?.date ?? null, end: end?.date ?? null, start_at: start?.at ?? null, end_at: end?.at ?? null, source: 'jgrants' } : null,
      amount_max_man_yen: amount,
      prefecture: !nationwide && prefectures.length === 1 ? prefectures[0] : null,
      prefectures: nationwide ? [] : prefectures,
      nationwide,
      funding_purpose: splitList(d.use_purpose),
      jsic_majors: jsic,
      target_types: band ? [band] : [],
      official_url: officialUrl,
      source_url: portal,
      authority_name: d.institution_name?.trim() || null,
      description: descriptionOf(d),
    },
  };
}
