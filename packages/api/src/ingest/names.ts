// Programme names as people mean them, derived at ingest from the published
// text (which is kept in `published_name`): page debris, status banners and
// site suffixes that scraping left in the name are removed by named rules,
// each reported by the ingest listing (test/catalog/name-place-report.test.ts).
// Pure functions.
import { normalizePrefecture } from '@jp-support/vocab';

export type NameRule =
  | 'file_note'
  | 'update_note'
  | 'status_banner'
  | 'banner'
  | 'status_suffix'
  | 'site_prefix'
  | 'site_suffix'
  | 'quoted_title'
  | 'announce_suffix'
  | 'breadcrumb'
  | 'call_banner'
  | 'period_note'
  | 'separator'
  | 'section_number';

export interface CleanedName {
  name: string;
  /** The rules that changed the text, in the order applied. */
  rules: NameRule[];
}

// Words of a status or department banner, never of a programme name.
const STATUS =
  /(終了|締切|締め切|〆|募集中|(?:募集|受付|申請)(?:を)?開始|受付中|更新|追加|掲載|公開|予告|延長|変更|中止|再開|^new$|新着|重要|お知らせ|注意|速報|\d+\s*[/月]\s*\d+|[課局室]$)/i;
// A note on an attached file: （PDF 234KB）, (Wordファイル：18KB), [PDF].
const FILE_NOTE = /\s*[（(［[]\s*(?:pdf|word|excel|xlsx?|docx?|zip)[^）)］\]]{0,30}[）)］\]]/giu;
// A status said after the name: （受付終了）, ※募集は終了しました.
const STATUS_SUFFIX = /\s*(?:[（(](?:[^（）()]{0,12})(?:終了|締切|開始|募集中|受付中)(?:しました)?[）)]|※[^※]{0,20}(?:終了|締切)(?:しました)?)\s*$/u;
// A trailing segment that names a site, an office or a section, not a programme.
const SITE_SEGMENT = /(ホームページ|サイト|ポータル|トップページ|の情報|一覧|.[市区町村局課部庁省室所]|センター|機構|公社|協会|財団|会議所|ネット|home|top)$/iu;
// Words only a site's title holds, wherever they stand in the segment (青森県庁ウェブサイト Aomori Prefectural Government).
const SITE_WORDS = /ホームページ|ウェブサイト|webサイト|公式サイト|ポータルサイト|government|prefecture\b|official website/iu;
// The English name a site appends in brackets: [Osaka Prefectural Government].
const ENGLISH_TAIL = /\s*[[［][a-z][a-z .,'&-]*[\]］]\s*$/iu;
// A place that titles a site, then its section: 「富山県／」, 「三重県｜ものづくり産業：」, 「島根県：」.
const SITE_PREFIX = /^([^\s／/|｜:：「」【】（）()]{2,8}?)(?:\s*[／|｜:：]\s*|\s+[-－–—]\s+)(?:[^\s／/|｜:：「」【】]{1,12}[:：]\s*)?(?=\S)/u;
const PLACE_NAME = /^[^\s]{1,6}(?:都|道|府|県|市|区|町|村)$/u;
// A bracketed label of a call anywhere in the name: 【令和5年度募集（中小企業者分）】, 【インバウンド受入機関公募】.
const CALL_BANNER = /\s*[【［]([^【】［］]{0,30}(?:募集|公募|受付|締切)[^【】［］]{0,30})[】］]\s*/gu;
// A period opening the name: （7/15～8/22）, (4月1日～5月31日).
const PERIOD_NOTE =
  /^[（(]\s*[0-9０-９]{1,2}\s*[/／月]\s*[0-9０-９]{1,2}\s*日?\s*[～〜~ー－-]\s*(?:[0-9０-９]{1,2}\s*[/／月]\s*)?[0-9０-９]{1,2}\s*日?\s*[）)]\s*/u;
// A news date opening the name, then a space: 「4月24日 ヤングケアラー…補助金」 (a page's list of news).
// Unspaced it is part of the name: 令和7年8月10日からの大雨に係る被災者生活再建支援金.
const NEWS_DATE =
  /^(?:(?:令和|平成)\s*[0-9０-９元]{1,2}\s*年|20[0-9]{2}\s*年)?\s*[0-9０-９]{1,2}\s*月\s*[0-9０-９]{1,2}\s*日(?:\s*[（(][^（）()]{1,4}[）)])?\s+(?=\S)/u;
// A breadcrumb: 優遇制度 > 未来創造産業立地促進補助金（…）: the page is the last crumb.
// Only a spaced mark: ＜…＞ unspaced is a bracket (＜一部公共＞, ＜最大750万円＞).
const BREADCRUMB = /\s+[>＞»≫]\s+/u;
// A sentence announcing support (…の導入を支援します。): the programme is the support it names.
const SUPPORT_SENTENCE = /を(支援|応援|補助|助成)します[!！。︕]*$/u;
// A note of when the page changed: （2024年9月30日更新）, （4月16日更新）, （R8.4.6追記）.
const UPDATE_NOTE = /\s*[（(][^（）()]{0,24}(?:更新|掲載|追記|現在|時点)[）)]\s*/gu;
// Announcement wording after a programme name.
const PROGRAMME_NOUN = '(?:補助金|助成金|支援金|応援金|交付金|奨励金|給付金|補給金|協力金|資金|融資|貸付|制度|事業|税制|プログラム|基金)';
const ANNOUNCE = '(?:の(?:募集|公募|申請受付|受付|交付申請|申請)(?:の|を)?(?:開始|受付)?(?:について|します)?|について|のご案内|のお知らせ)';
const UPDATED = '(?:(?:を|について)?(?:掲載|更新|追加)しました)';
const ANNOUNCE_SUFFIX = new RegExp(`(?<=${PROGRAMME_NOUN})(?:${ANNOUNCE}${UPDATED}?|${UPDATED})(?:[（(][^（）()]{0,20}[）)])?$`, 'u');
const PROGRAMME_NOUN_RE = new RegExp(PROGRAMME_NOUN, 'u');
// A programme's call announced, then more of the page's text: the name is what was announced.
const ANNOUNCE_RUN_ON = new RegExp(`^(.{2,}?${PROGRAMME_NOUN})の(?:募集|公募|申請受付|受付)を(?:開始|実施)(?:しました|します)[!！。]?\\s+\\S.*$`, 'u');
const QUOTED =
  /^((?:(?:令和|平成)\s*[0-9０-９元]{1,2}\s*年度?|[2２][0０][0-9０-９]{2}\s*年度?|第\s*[0-9０-９一二三四五六七八九十]{1,3}\s*[回期次])\s*)?「([^「」]{4,})」(.*)$/u;
// A description that ends with the programme's name in brackets: 「交通費を補助「宮崎県UIJターン就活応援補助金」」.
const QUOTED_LAST = /^[^「」]{2,}「([^「」]{4,})」$/u;
// Announcement wording after a name (any name): 〜について, 〜のお知らせ, 〜の二次募集を開始します！, 〜を公募します.
const ROUND = '(?:[0-9０-９一二三四五六七八九十]+次|第[0-9０-９一二三四五六七八九十]+(?:次|回|期)|追加|再)?';
const GENERIC_ANNOUNCE = new RegExp(
  `(?:(?:の|を)?${ROUND}(?:募集|公募|申請受付|受付|申請|実施|交付申請)(?:の|を)?(?:開始|実施|受付)?(?:について|します|しました|しています|のお知らせ|のご案内)|の(?:ご案内|お知らせ)|について)(?:[!！。︕]+)?(?:\\s*[（(][^（）()]{0,24}[）)])?$`,
  'u',
);
const QUOTED_REST =
  /^(?:の|を|が|への|に関する|に係る)?[^「」]{0,30}(?:について|お知らせ|関連情報|ご案内|案内|募集|公募|開始|します|しました|開催)[!！]?(?:[（(][^（）()]{0,20}[）)])?$/u;

const siteLike = (segment: string): boolean => {
  const s = segment
    .replace(ENGLISH_TAIL, '')
    .replace(/[（(][^（）()]*[）)]$/u, '')
    .trim();
  return SITE_SEGMENT.test(s) || SITE_WORDS.test(segment) || normalizePrefecture(s) !== null;
};

/**
 * 「創業支援を受けたい|創業支援|東京都産業労働局」 -> 「創業支援を受けたい」. A
 * bar separates a page title from its site (the segments after it may be
 * short section names); a spaced dash or a slash only when what follows
 * names a site or an office, and never inside brackets.
 */
function withoutSiteSuffix(name: string): string {
  const bars = name
    .split(/\s*[|｜]\s*/u)
    .map((s) => s.trim())
    .filter(Boolean);
  // After the name come the section and the site: the last segment says it is a site.
  if (bars.length > 1 && (bars.slice(1).every((s) => siteLike(s) || [...s].length <= 8) || siteLike(bars.at(-1)!))) return bars[0];
  let rest = name;
  for (;;) {
    const tail = /^(.*[^\s])(?:\s+[-－–—]\s+|\s*[／/]\s*)([^／/]{1,64})$/u.exec(rest);
    if (!tail || !balanced(tail[1]) || !(siteLike(tail[2]) || (rest !== name && [...tail[2]].length <= 8))) return rest;
    rest = tail[1];
  }
}

const balanced = (s: string): boolean => (s.match(/[（(「【［[]/gu)?.length ?? 0) === (s.match(/[）)」】］\]]/gu)?.length ?? 0);

/** Clean a published programme name; `rules` says what changed. */
export function cleanProgramName(published: string): CleanedName {
  const rules: NameRule[] = [];
  let name = published.replace(/[\s\u3000]+/g, ' ').trim();
  const apply = (rule: NameRule, next: string): void => {
    const tidy = next.replace(/[\s\u3000]+/g, ' ').trim();
    if (tidy !== name && tidy.length >= 2) {
      name = tidy;
      if (!rules.includes(rule)) rules.push(rule);
    }
  };

  apply('file_note', name.replace(FILE_NOTE, ''));
  apply('update_note', name.replace(UPDATE_NOTE, ' '));
  const banners = (): void => {
    apply(
      'status_banner',
      name.replace(/[【［[]([^】］\]]{1,30})[】］\]]/gu, (whole, inner: string) => (STATUS.test(inner) ? ' ' : whole)),
    );
    // Any other banner that opens the name: 【補助金】, 【経産省ZEH】, 【秋田への移住で最大１００万円！】.
    const opening = /^(?:【[^【】]{1,40}】\s*)+(.*)$/u.exec(name);
    if (opening && [...opening[1]].length >= 4) apply('banner', opening[1]);
  };
  banners();
  apply('status_suffix', name.replace(STATUS_SUFFIX, ''));
  apply('call_banner', name.replace(CALL_BANNER, ''));
  apply('period_note', name.replace(PERIOD_NOTE, ''));
  apply('period_note', name.replace(NEWS_DATE, ''));
  const crumbs = name.split(BREADCRUMB);
  if (crumbs.length > 1 && crumbs.every(balanced) && [...crumbs.at(-1)!].length >= 4) apply('breadcrumb', crumbs.at(-1)!);

  apply('site_suffix', withoutSiteSuffix(name));
  const prefix = SITE_PREFIX.exec(name);
  if (prefix && (normalizePrefecture(prefix[1]) !== null || PLACE_NAME.test(prefix[1])) && [...name.slice(prefix[0].length)].length >= 4) {
    apply('site_prefix', name.slice(prefix[0].length));
    banners();
    apply('site_suffix', withoutSiteSuffix(name));
  }
  apply('status_suffix', name.replace(STATUS_SUFFIX, ''));

  const quoted = QUOTED.exec(name);
  if (quoted && QUOTED_REST.test(quoted[3]) && !PROGRAMME_NOUN_RE.test(quoted[3])) apply('quoted_title', `${quoted[1] ?? ''}${quoted[2]}`);
  const quotedLast = QUOTED_LAST.exec(name);
  if (quotedLast && PROGRAMME_NOUN_RE.test(quotedLast[1])) apply('quoted_title', quotedLast[1]);
  apply('announce_suffix', name.replace(ANNOUNCE_SUFFIX, ''));
  const generic = GENERIC_ANNOUNCE.exec(name);
  if (generic && [...name.slice(0, generic.index)].length >= 4) apply('announce_suffix', name.slice(0, generic.index));
  // A call's announcement with the page's text run on after it: 「…補助金の募集を開始しました DX推進課 new 目的及び概要…」.
  const runOn = ANNOUNCE_RUN_ON.exec(name);
  if (runOn) apply('announce_suffix', runOn[1]);
  // 「…設備の導入を支援します。」 -> 「…設備の導入支援」.
  if (SUPPORT_SENTENCE.test(name) && [...name.replace(SUPPORT_SENTENCE, '')].length >= 4) apply('announce_suffix', name.replace(SUPPORT_SENTENCE, '$1'));
  // What is left may be the quoted name alone: 「ちば地域産業創出実証プロジェクト補助金」.
  const bare = /^「([^「」]{4,})」$/u.exec(name);
  if (bare) apply('quoted_title', bare[1]);
  // 「15-Ⅲ 人材確保等支援助成金（…コース）」: the number of a list page's section before the name.
  apply('section_number', name.replace(/^\d{1,3}[-－‐][ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ0-9０-９]{1,3}\s+(?=\S{4})/u, ''));
  // 「岐阜_農業6次産業化…」: an underscore between a place and the name.
  apply('separator', name.replace(/\s*_\s*/g, ' '));
  return { name, rules };
}

const KANJI_DIGITS: Record<string, number> = { 元: 1, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

/**
 * The fiscal year a record speaks of, when it says so: 令和7年度, R7, 2026年度
 * in the name, else the year of the application window. Null when unknown.
 */
export function fiscalYear(publishedName: string, windowStart: string | null, windowEnd: string | null): number | null {
  const name = publishedName.normalize('NFKC');
  const reiwa = /令和\s*([0-9]{1,2}|[元一二三四五六七八九十]{1,2})\s*年/u.exec(name);
  if (reiwa) {
    const n = /^[0-9]+$/.test(reiwa[1]) ? Number(reiwa[1]) : [...reiwa[1]].reduce((acc, ch) => (ch === '十' ? (acc || 1) * 10 : acc + KANJI_DIGITS[ch]), 0);
    if (n >= 1 && n <= 30) return 2018 + n;
  }
  const r = /(?:^|[^a-z])r\s*([0-9]{1,2})(?=\s*年|補正|当初|\.|\s|$)/iu.exec(name);
  if (r && Number(r[1]) >= 1 && Number(r[1]) <= 30) return 2018 + Number(r[1]);
  const western = /(20[0-9]{2})\s*年度?/u.exec(name);
  if (western) return Number(western[1]);
  const date = windowEnd ?? windowStart;
  return date ? Number(date.slice(0, 4)) : null;
}
