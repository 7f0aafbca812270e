// Programme names as people mean them, derived at ingest from the published
// text (which is kept in `published_name`): page debris, status banners and
// site suffixes that scraping left in the name are removed by named rules,
// each reported by the ingest listing (test/catalog/name-place-report.test.ts).
// Pure functions.
import { normalizePrefecture } from '@jp-support/vocab';

export type NameRule = 'file_note' | 'status_banner' | 'status_suffix' | 'site_suffix' | 'quoted_title' | 'announce_suffix' | 'separator';

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
const SITE_SEGMENT = /(ホームページ|サイト|ポータル|トップページ|の情報|一覧|.[市区町村局課部庁省室所]|センター|機構|公社|協会|財団|会議所|home|top)$/iu;
// Announcement wording after a programme name.
const PROGRAMME_NOUN = '(?:補助金|助成金|支援金|応援金|交付金|奨励金|給付金|補給金|協力金|資金|融資|貸付|制度|事業|税制|プログラム|基金)';
const ANNOUNCE = '(?:の(?:募集|公募|申請受付|受付|交付申請|申請)(?:の|を)?(?:開始|受付)?(?:について|します)?|について|のご案内|のお知らせ)';
const UPDATED = '(?:(?:を|について)?(?:掲載|更新|追加)しました)';
const ANNOUNCE_SUFFIX = new RegExp(`(?<=${PROGRAMME_NOUN})(?:${ANNOUNCE}${UPDATED}?|${UPDATED})(?:[（(][^（）()]{0,20}[）)])?$`, 'u');
const PROGRAMME_NOUN_RE = new RegExp(PROGRAMME_NOUN, 'u');
const QUOTED = /^「([^「」]{4,})」(.*)$/u;
const QUOTED_REST =
  /^(?:の|を|が|への|に関する|に係る)?[^「」]{0,30}(?:について|お知らせ|関連情報|ご案内|案内|募集|公募|開始|します|しました|開催)[!！]?(?:[（(][^（）()]{0,20}[）)])?$/u;

const siteLike = (segment: string): boolean => {
  const s = segment.replace(/[（(][^（）()]*[）)]$/u, '').trim();
  return SITE_SEGMENT.test(s) || normalizePrefecture(s) !== null;
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
  if (bars.length > 1 && bars.slice(1).every((s) => siteLike(s) || [...s].length <= 8)) return bars[0];
  let rest = name;
  for (;;) {
    const tail = /^(.*[^\s])(?:\s+[-－–—]\s+|\s*／\s*)([^／]{1,30})$/u.exec(rest);
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
      rules.push(rule);
    }
  };

  apply('file_note', name.replace(FILE_NOTE, ''));
  apply(
    'status_banner',
    name.replace(/[【［[]([^】］\]]{1,30})[】］\]]/gu, (whole, inner: string) => (STATUS.test(inner) ? ' ' : whole)),
  );
  apply('status_suffix', name.replace(STATUS_SUFFIX, ''));

  apply('site_suffix', withoutSiteSuffix(name));

  const quoted = QUOTED.exec(name);
  if (quoted && QUOTED_REST.test(quoted[2]) && !PROGRAMME_NOUN_RE.test(quoted[2])) apply('quoted_title', quoted[1]);
  apply('announce_suffix', name.replace(ANNOUNCE_SUFFIX, ''));
  // 「岐阜_農業6次産業化…」: an underscore between a place and the name.
  apply('separator', name.replace(/\s*_\s*/g, ' '));
  return { name, rules };
}

/**
 * What kind of page a record is, from its published name and kind: the
 * quality prior of the ranking puts real programmes ahead of the others.
 */
export type RecordClass = 'programme' | 'law_provision' | 'document' | 'index_page' | 'announcement' | 'debris';

const DEBRIS =
  /^(page\s*top|ページの?先頭へ?|メインコンテンツへ移動|本文へ(?:移動|スキップ)?|メニュー|トップページ|ホーム|サイトマップ|home|menu|skip to .*)$/iu;
const LAW = /第[0-9０-９一二三四五六七八九十百]+条|施行令|施行規則|(?:^|[^の])法(?:律)?$|法\s*第/u;
const LAW_KINDS = new Set(['regulation', 'regulatory_framework', 'guideline']);
const DOCUMENT =
  /様式|記入例|要綱|要領|交付規程|手引|リーフレット|パンフレット|チラシ|q\s*&\s*a|faq|よくある(?:ご)?質問|申請書|\.pdf$|(?:pdf|word|excel)(?:ファイル)?\s*[：:]?\s*\d/iu;
const INDEX_KINDS = new Set(['directory', 'portal_information']);
const INDEX =
  /一覧|ポータル|まとめ|案内ハブ|を受けたい|支援制度の紹介|施策の紹介|リンク集|目次|^(?:各種|主な|その他の?)?(?:補助金|助成金|補助金・助成金|補助・助成|支援制度|助成制度|支援策)(?:等|情報|の?ご?案内|について)?$/u;
const ANNOUNCEMENT =
  /説明会|開催します|開催のお知らせ|採択(?:結果|事業者|者)|審査結果|交付決定(?:時期|状況)|御?意見(?:を)?募集|パブリックコメント|更新しました|掲載しました|事前告知|セミナー|シンポジウム|調査について|実態調査|アンケート|入札|委託先|委託事業者|受託者|選定のための|公告/u;

export function recordClass(publishedName: string, programKind: string | null | undefined): RecordClass {
  const name = publishedName.normalize('NFKC').trim();
  if (DEBRIS.test(name) || [...name].length < 3) return 'debris';
  if (LAW_KINDS.has(programKind ?? '') || LAW.test(name)) return 'law_provision';
  if (DOCUMENT.test(name)) return 'document';
  if (INDEX_KINDS.has(programKind ?? '') || INDEX.test(name)) return 'index_page';
  if (ANNOUNCEMENT.test(name)) return 'announcement';
  return 'programme';
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
