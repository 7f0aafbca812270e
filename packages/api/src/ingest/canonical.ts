// One programme, one record (docs/decisions/0330-canonical-programmes.md):
// the rules, beyond the dataset's duplicate groups and identical names
// (duplicate-groups.ts), by which records of one programme are linked at
// ingest. Pure over the records' cleaned names and places.
//
// - round:     the same name once rounds and years are removed
//              (持続化補助金 一般型 通常枠 商工会版 第11回 / 第12回 / …,
//              令和6年度 / 令和7年度 …), in the same place;
// - area:      the same name once a 商工会 / 商工会議所 area marker is removed
//              (… 商工会地区分 / … 商工会議所地区), in the same place;
// - division:  the same name once the lending division of 日本政策金融公庫 is
//              removed (女性、若者/シニア起業家支援資金（中小企業事業） / …（国民生活事業） / the
//              name alone): one loan, lent by two divisions (decision 0319);
// - successor: a record naming its predecessor (デジタル化・AI導入補助金
//              （旧IT導入補助金）) and the predecessor's records, and the records of
//              its own name alone (デジタル化・AI導入補助金), in the same place;
// - expense_split: a local programme published as one record per expense
//              type or course (就農移住者支援事業（住居費支援）/（燃料費支援）…):
//              local records of one place whose names are one programme name
//              plus a bracketed part, at least two of them, and a record of
//              that programme name alone in that place.
// - same_page: records of one name on one page (the URL without scheme,
//              www. or a trailing slash), whose places do not contradict each
//              other (one of them lacks the prefecture or municipality the
//              other has: 山武市移住支援金 with and without 千葉県).
// - prefixed:  records of one page whose programme keys differ only by a head
//              one of them adds (its place, its authority, the full name's
//              first words: 高崎市 農地再生推進事業補助金 / 農地再生推進事業補助金,
//              JFC 企業再建資金 / 企業再建資金, 小規模事業者持続化補助金（創業型）… /
//              持続化補助金 創業型 …), both programmes, places not contradicting
//              (decision 0319). A part added at the end (a course, a category)
//              keeps them apart; so does a page of law provisions (防止措置（…法） / …法).
// - alias:     a record named with its short name in brackets
//              (ものづくり・商業・サービス生産性向上促進補助金 (ものづくり補助金)) links
//              the records of either name, when both are programme names, the
//              short one an abbreviation of the long one (its characters in
//              order), and records of both stand in its place (decision 0314).
// - swapped:   one programme named two ways round, its name with the other in
//              brackets (経営環境変化対応資金（セーフティネット貸付） / JFC セーフティネット貸付
//              (経営環境変化対応資金); 一般貸付（生活衛生貸付） / 生活衛生貸付（一般貸付）), the
//              lender's name ahead aside, in the same place (decision 0333).
// - national_page: a place's page of a national programme: a local record
//              (one with a prefecture) named exactly as a national programme's
//              own record (no prefecture, authority level national), both
//              programmes (環境保全型農業直接支払交付金 on 大空町's page, 法人版事業承継税制
//              tagged 佐賀県): the national record is the programme (decision 0333).
// - lender_head: a loan named with its lender ahead (JFC 創業融資, 日本政策金融公庫
//              海外展開・事業再編資金) and a record of its name alone, in the same place,
//              whatever their pages (prefixed needs one page): one loan (decision 0333).
// Courses of national programmes (特定求職者雇用開発助成金（…コース）) have
// rules and amounts of their own and stay apart; so do categories and types
// (ものづくり補助金（グローバル枠）): merging them was measured and dropped (decision 0314).
import { compactKey } from '../catalog/search-text.ts';

export type LinkRule =
  | 'round'
  | 'area'
  | 'division'
  | 'successor'
  | 'expense_split'
  | 'same_page'
  | 'prefixed'
  | 'alias'
  | 'swapped'
  | 'national_page'
  | 'lender_head';

export interface CanonicalMember {
  pid: number;
  /** The cleaned primary name. */
  name: string;
  prefecture: string | null;
  municipality: string | null;
  /** The record's page (official_url, else source_url). */
  url?: string | null;
  /** Whether the record is a programme (record_class); unknown counts as one. */
  programme?: boolean;
  /** A national programme's own record (no prefecture, authority level national). */
  national?: boolean;
}

export interface Link {
  a: number;
  b: number;
  rule: LinkRule;
}

// A key shorter than this says too little to link two records by.
const MIN_KEY = 5;

const NUMBER = '[0-9一二三四五六七八九十〇元]+';
// 第11回, 第22次公募, 第2期, （第19回/第20回）.
const ROUND = new RegExp(`第\\s*${NUMBER}\\s*(?:回|次|期)(?:\\s*(?:公募|募集|締切))?`, 'gu');
// 令和7年度, 令和6年度補正, R6年度, 2025年度, 平成30年, 令和7年7月.
const YEAR = new RegExp(
  `(?:(?:令和|平成)\\s*${NUMBER}|r\\s*[0-9]{1,2}|20[0-9]{2})\\s*年度?(?:\\s*[0-9]{1,2}\\s*月)?(?:\\s*(?:補正|当初))?(?:予算)?(?:分)?`,
  'giu',
);
// A bare year right after a programme word: IT導入補助金2024.
const TRAILING_YEAR = /(?<=[金業度])20[0-9]{2}(?![0-9])/gu;
// One programme, one record per area of the chambers of commerce.
const AREA = /[（(]?\s*商工会(?:・商工会議所)?(?:議所)?\s*(?:地区分|地区\s*共通制度|地区|版)\s*[）)]?/gu;
// One loan, one record per lending division of 日本政策金融公庫.
const DIVISION = /\s*[（(]\s*(?:中小企業事業|国民生活事業|農林水産事業)\s*[）)]/gu;
// 「（旧IT導入補助金）」, 「(旧:先駆け審査指定制度)」, 「(旧事業再構築補助金後継)」.
const PREDECESSOR = /[（(]\s*旧\s*[:：・]?\s*([^（）()]{2,40}?)\s*(?:後継|等)?\s*[）)]/u;
// A programme name: what a name stripped of its bracketed part must end with to be one.
const PROGRAMME_END = /(?:補助金|助成金|支援金|奨励金|交付金|給付金|補給金|事業|制度|資金|融資|貸付|保証|税制)$/u;
const TRAILING_BRACKET = /^(.+?)\s*(?:[（(][^（）()]{1,40}[）)]|【[^【】]{1,40}】)$/u;

export interface ProgrammeKey {
  key: string;
  rules: LinkRule[];
}

/** The name's key with rounds, years, area markers and lending divisions removed, and which of those it had. */
export function programmeKey(name: string): ProgrammeKey {
  const text = name.normalize('NFKC');
  const rules: LinkRule[] = [];
  let stripped = text.replace(ROUND, ' ').replace(YEAR, ' ').replace(TRAILING_YEAR, ' ');
  if (stripped !== text) rules.push('round');
  const withoutArea = stripped.replace(AREA, ' ');
  if (withoutArea !== stripped) rules.push('area');
  const withoutDivision = withoutArea.replace(DIVISION, ' ');
  if (withoutDivision !== withoutArea) rules.push('division');
  stripped = withoutDivision;
  return { key: compactKey(stripped), rules };
}

/** The predecessor a name points to (X（旧Y） -> Y), as a programme key, or null. */
export function predecessorKey(name: string): string | null {
  const m = PREDECESSOR.exec(name.normalize('NFKC'));
  if (!m) return null;
  const key = programmeKey(m[1]).key;
  return key.length >= MIN_KEY ? key : null;
}

/** The programme name of a local split record (BASE（part）), as a programme key, or null. */
export function splitBaseKey(name: string): string | null {
  const m = TRAILING_BRACKET.exec(name.normalize('NFKC').trim());
  if (!m || !PROGRAMME_END.test(m[1].trim())) return null;
  const key = programmeKey(m[1]).key;
  return key.length >= MIN_KEY ? key : null;
}

const LAST_BRACKET = /^(.*?)\s*[（(]([^（）()]*)[）)]\s*$/u;

/** Whether every character of `short` appears in `long`, in order: an abbreviation (ものづくり補助金 of ものづくり・商業・サービス生産性向上促進補助金). */
function abbreviates(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}

/**
 * The two names of a record named with its short name in brackets (A（B）), as programme keys: both
 * programme names and B an abbreviation of A. A part in brackets that is not one
 * (新規就農者育成総合対策事業（経営発展支援事業）: a component of an umbrella) names another programme.
 */
export function aliasKeys(name: string): [string, string] | null {
  const m = LAST_BRACKET.exec(name.normalize('NFKC').trim());
  if (!m) return null;
  const [long, short] = [m[1].trim(), m[2].trim()];
  if (!PROGRAMME_END.test(long) || !PROGRAMME_END.test(short)) return null;
  const a = programmeKey(long).key;
  const b = programmeKey(short).key;
  if (a.length < MIN_KEY || b.length < MIN_KEY || b.length >= a.length || !abbreviates(b, a)) return null;
  return [a, b];
}

// The lender's name some sources put ahead of its loans' names (JFC セーフティネット貸付).
const LENDER_HEAD = /^(?:JFC|日本政策金融公庫|日本公庫)\s*/u;

/**
 * The two parts of a name A（B）, as programme keys in a fixed order, the lender's name ahead removed: one key for
 * A（B） and B（A）, or null when there is no such bracket or a part is too short to link by.
 */
export function swappedKey(name: string): string | null {
  const m = LAST_BRACKET.exec(name.normalize('NFKC').trim().replace(LENDER_HEAD, ''));
  if (!m) return null;
  const parts = [programmeKey(m[1]).key, programmeKey(m[2]).key];
  if (parts.some((k) => k.length < MIN_KEY) || parts[0] === parts[1]) return null;
  return parts.sort().join('\u0000');
}

/** A renamed programme's own name without its pointer to the predecessor (デジタル化・AI導入補助金（旧IT導入補助金） -> デジタル化・AI導入補助金), as a programme key. */
export function successorOwnKey(name: string): string | null {
  const text = name.normalize('NFKC');
  if (!PREDECESSOR.test(text)) return null;
  const key = programmeKey(text.replace(PREDECESSOR, ' ')).key;
  return key.length >= MIN_KEY ? key : null;
}

const placeOf = (m: CanonicalMember): string => `${m.prefecture ?? ''}\u0000${m.municipality ?? ''}`;

/** A page address compared loosely: no scheme, no www., no fragment, no trailing slash; the host in lower case. */
export function pageKey(url: string | null | undefined): string | null {
  const m = url ? /^https?:\/\/(?:www\.)?([^/?#]+)([^#]*)/iu.exec(url.trim()) : null;
  return m ? `${m[1].toLowerCase()}${m[2].replace(/\/+$/u, '')}` : null;
}

/** Two places that can be one: each part equal, or missing on one side. */
const placesAgree = (a: CanonicalMember, b: CanonicalMember): boolean =>
  (a.prefecture === null || b.prefecture === null || a.prefecture === b.prefecture) &&
  (a.municipality === null || b.municipality === null || a.municipality === b.municipality);

/** Members grouped by a key of each, in their order; a member whose key is null is left out. */
function groupBy(members: readonly CanonicalMember[], keyOf: (m: CanonicalMember) => string | null): Map<string, CanonicalMember[]> {
  const groups = new Map<string, CanonicalMember[]>();
  for (const m of members) {
    const k = keyOf(m);
    if (k === null) continue;
    const list = groups.get(k);
    if (list) list.push(m);
    else groups.set(k, [m]);
  }
  return groups;
}

/** The links between records of one programme found by the rules above. */
export function canonicalLinks(members: readonly CanonicalMember[]): Link[] {
  const links: Link[] = [];
  const keys = new Map<number, ProgrammeKey>(members.map((m) => [m.pid, programmeKey(m.name)]));
  // Records by programme key and place.
  const byKey = groupBy(members, (m) => {
    const { key } = keys.get(m.pid)!;
    return key.length < MIN_KEY ? null : `${key}\u0000${placeOf(m)}`;
  });
  // round / area: one key, one place.
  for (const list of byKey.values()) {
    for (let i = 1; i < list.length; i++) {
      const rules = new Set([...keys.get(list[0].pid)!.rules, ...keys.get(list[i].pid)!.rules]);
      // Identical names are linked by duplicate-groups.ts already; a link here names what differed.
      for (const rule of rules) links.push({ a: list[0].pid, b: list[i].pid, rule });
    }
  }
  // successor: X（旧Y） with the records of Y, and of X named alone, in its place
  // (X alone even when Y is too short to link by: 創業型 (旧創業枠)).
  for (const m of members) {
    const keysOf = [predecessorKey(m.name), successorOwnKey(m.name)].filter((k): k is string => k !== null);
    for (const key of keysOf) {
      for (const p of byKey.get(`${key}\u0000${placeOf(m)}`) ?? []) if (p.pid !== m.pid) links.push({ a: m.pid, b: p.pid, rule: 'successor' });
    }
  }
  // expense_split: local BASE（part） records, two or more, with a record of BASE alone in their place.
  const splits = groupBy(members, (m) => {
    const base = m.prefecture === null ? null : splitBaseKey(m.name);
    return base === null ? null : `${base}\u0000${placeOf(m)}`;
  });
  for (const [k, parts] of splits) {
    const whole = byKey.get(k);
    if (!whole || parts.length < 2) continue;
    for (const part of parts) links.push({ a: whole[0].pid, b: part.pid, rule: 'expense_split' });
  }
  // alias: A（B） with the records of A and of B, when both stand in its place.
  for (const m of members) {
    const names = aliasKeys(m.name);
    if (names === null) continue;
    const [long, short] = names.map((k) => (byKey.get(`${k}\u0000${placeOf(m)}`) ?? []).filter((p) => p.pid !== m.pid));
    if (long.length === 0 || short.length === 0) continue;
    for (const p of [...long, ...short]) links.push({ a: m.pid, b: p.pid, rule: 'alias' });
  }
  // swapped: A（B） and B（A） in one place, a record of either form linked to the first of them.
  const swapped = groupBy(members, (m) => {
    const key = swappedKey(m.name);
    return key === null ? null : `${key}\u0000${placeOf(m)}`;
  });
  for (const list of swapped.values()) {
    const forms = new Set(list.map((m) => keys.get(m.pid)!.key));
    if (forms.size < 2) continue;
    for (let i = 1; i < list.length; i++)
      if (keys.get(list[i].pid)!.key !== keys.get(list[0].pid)!.key) links.push({ a: list[0].pid, b: list[i].pid, rule: 'swapped' });
  }
  // lender_head: the lender's name ahead, and the same key without it in the same place.
  for (const m of members) {
    const text = m.name.normalize('NFKC').trim();
    if (!LENDER_HEAD.test(text)) continue;
    const key = programmeKey(text.replace(LENDER_HEAD, '')).key;
    if (key.length < MIN_KEY) continue;
    for (const p of byKey.get(`${key}\u0000${placeOf(m)}`) ?? []) if (p.pid !== m.pid) links.push({ a: p.pid, b: m.pid, rule: 'lender_head' });
  }
  // national_page: a local record of a national programme's exact name, linked to the national record.
  const nationalByName = new Map<string, CanonicalMember>();
  for (const m of members) {
    const name = compactKey(m.name);
    if (m.national === true && m.programme !== false && name.length >= MIN_KEY && !nationalByName.has(name)) nationalByName.set(name, m);
  }
  for (const m of members) {
    if (m.prefecture === null || m.programme === false) continue;
    const national = nationalByName.get(compactKey(m.name));
    if (national) links.push({ a: national.pid, b: m.pid, rule: 'national_page' });
  }
  // same_page: one name on one page, places that do not contradict each other.
  const byPage = groupBy(members, (m) => {
    const page = pageKey(m.url);
    const name = compactKey(m.name);
    return page === null || name.length < MIN_KEY ? null : `${name}\u0000${page}`;
  });
  for (const list of byPage.values()) {
    for (let i = 1; i < list.length; i++) {
      const first = list.find((o) => o !== list[i] && placesAgree(o, list[i]) && placeOf(o) !== placeOf(list[i]));
      if (first) links.push({ a: first.pid, b: list[i].pid, rule: 'same_page' });
    }
  }
  links.push(...prefixedLinks(members, keys));
  return links;
}

// The least a head must add to be one (JFC, 旭市): a single character is a letter of the name.
const MIN_HEAD = 2;

/** prefixed: on one page, a key that is another's with a head added, places agreeing. */
function prefixedLinks(members: readonly CanonicalMember[], keys: ReadonlyMap<number, ProgrammeKey>): Link[] {
  const byPage = groupBy(members, (m) => (m.programme === false ? null : pageKey(m.url)));
  const links: Link[] = [];
  for (const list of byPage.values()) {
    if (list.length < 2) continue;
    for (const long of list) {
      const longKey = keys.get(long.pid)!.key;
      for (const short of list) {
        const shortKey = keys.get(short.pid)!.key;
        if (shortKey.length < MIN_KEY || longKey.length - shortKey.length < MIN_HEAD) continue;
        if (longKey.endsWith(shortKey) && placesAgree(long, short)) links.push({ a: short.pid, b: long.pid, rule: 'prefixed' });
      }
    }
  }
  return links;
}
