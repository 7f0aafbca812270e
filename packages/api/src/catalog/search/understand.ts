// Query understanding: what a person typed, turned into what the search
// matches and what it ranks by. One function, used by the programme search
// (REST and the search_programs tool share it through the route) and by the
// citation-backed answer.
//
// - Text is normalised like the index (catalog/search-text.ts): NFKC, width
//   and case folding, katakana folded to hiragana.
// - Japanese written without spaces is segmented with Intl.Segmenter (ICU's
//   dictionary, part of Node; no model is loaded per process), then rejoined
//   where the dictionary below knows a longer word (東京+都 -> 東京都), and a
//   lone kanji sticks to its neighbour (就農+者 -> 就農者).
// - vocabulary.json (data) gives synonyms and abbreviations (one term,
//   several spellings), generic words (補助金: ranks, does not filter), the
//   program kinds and funding purposes a word points to, stopwords, and
//   needs: how a person describes a situation (会社を始めたい, 資金繰りが
//   苦しい) and the word the search uses for it, replaced before splitting.
// - A prefecture named in q (東京, Tokyo, 北海道) is a ranking signal, not a
//   filter; so are a purpose and a kind.
import { INDUSTRIES, PURPOSES as PURPOSE_VOCABULARY, type Place, isPlace, normalizePrefecture, resolvePlace } from '@jp-support/vocab';
import { compactKey, isKanaOnly, searchNormalize } from '../search-text.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };
import sudachi from './sudachi-variants.json' with { type: 'json' };
import { Lru } from '../../lib/lru.ts';
import { escapeRegExp } from '../../lib/regexp.ts';

/** At most this many terms (required and generic) are searched; more is a 400 (MAX_TERMS_DETAIL). */
export const MAX_QUERY_TERMS = 12;
export const MAX_TERMS_DETAIL = `q: at most ${MAX_QUERY_TERMS} terms are searched; shorten the query`;

export interface TermGroup {
  /** The term as understood (search-normalised). */
  term: string;
  /** Spellings any of which satisfies the term (the term first). */
  alternatives: string[];
  /** A word of whom a programme is for (vocabulary.json `soft`: 中小企業, 個人事業主): a row lacking it loses less (rank.ts). */
  soft?: boolean;
}

export interface UnderstoodQuery {
  /** The whole query, search-normalised: the cache key's text part. */
  normalized: string;
  /** compactKey of the whole query (the exact-name and name-prefix boosts). */
  compact: string;
  /** Terms every result contains (any alternative of each). */
  required: TermGroup[];
  /**
   * Words of a sentence beside what it was read as (若い人を雇いたいが応募が来ない:
   * 応募, 若い人 beside 雇用): they rank a programme that holds them, but do
   * not filter, so a programme for the need is not lost for want of an
   * incidental word.
   */
  optional: TermGroup[];
  /** Content words run together in the query (認定新規就農者): a phrase boost when a name holds them together. */
  phrases: string[];
  /** Generic words (補助金, 支援 …): a boost when the name holds them, never a filter. */
  generic: string[];
  /** Prefectures named in q: ranking signal. */
  prefectures: string[];
  /** Municipalities named in q (浜松市), each with its prefecture: their programmes and their prefecture's first (rank.ts). */
  municipalities: Place[];
  /** JSIC majors of the trades q names in a trade's form (印刷業 -> 製造業: E, 飲食店: M): another trade's programmes rank down. */
  industries: string[];
  /** The purposes (funding_purpose terms of @jp-support/vocab) q's terms name: ranking signal. */
  purposes: string[];
  /** program_kind values the words point to (補助金 -> subsidy, grant): ranking signal. */
  kinds: string[];
  /**
   * Who is asking, as target_types terms (社員, 店, company -> the business
   * audiences; NPO, 農家 -> theirs): the fit part of the ranking prefers
   * programmes for them. Empty when q does not say.
   */
  audiences: string[];
  /** An amount named in q (500万円くらい, 1億円), in 万円: the fit part prefers programmes that fund that much; null when none. */
  amountManYen: number | null;
  /** Number of terms, for the MAX_QUERY_TERMS rule. */
  termCount: number;
  /**
   * The share of their weight the optional groups count at (rank.ts: 0.5 when absent). A match profile's
   * groups are what the company said it needs, not a sentence's incidental words: they count more.
   */
  optionalWeight?: number;
}

const norm = (s: string): string => searchNormalize(s);
const SYNONYMS = new Map<string, string[]>();
for (const group of vocabulary.synonyms) {
  const g = group.map(norm);
  SYNONYMS.set(g[0], g);
}
for (const group of vocabulary.synonyms) {
  const g = group.map(norm);
  for (const member of g) if (!SYNONYMS.has(member)) SYNONYMS.set(member, [member, ...g.filter((m) => m !== member)]);
}
/** Ways of writing one word (障害, 障がい): alternatives of a content word, not a concept. */
const SPELLINGS = new Map<string, string[]>();
for (const group of vocabulary.spellings) {
  const g = group.map(norm);
  for (const member of g) SPELLINGS.set(member, [member, ...g.filter((m) => m !== member)]);
}
// One way: a word also finds these names (賃上げ -> 業務改善助成金), they do not find the word.
for (const [word, names] of Object.entries(vocabulary.narrower as Record<string, string[]>)) {
  const w = norm(word);
  SYNONYMS.set(w, [...new Set([...(SYNONYMS.get(w) ?? [w]), ...names.map(norm)])]);
}
const GENERIC = new Set(vocabulary.generic.map(norm));
const STOP = new Set(vocabulary.stopwords.map(norm));
const KINDS = new Map(Object.entries(vocabulary.kinds).map(([k, v]) => [norm(k), v]));
const LONGEST_ENTRY = 16;
/** Phrases of a need, longest first (a longer phrase wins: 農業を始めたい before 始めたい), in the form q is split from. */
const NEEDS: [string, string][] = Object.entries(vocabulary.needs)
  .map(([phrase, word]): [string, string] => [phrase.normalize('NFKC').toLowerCase(), word])
  .sort((a, b) => b[0].length - a[0].length);

const NEED_PHRASES = new Set(NEEDS.map(([phrase]) => phrase));
/** A text of Latin letters only (an English word or phrase, as the search normalises it). */
export const LATIN_TEXT = /^[a-z0-9 &.-]+$/u;

/**
 * A test of whether a search-normalised text holds one of `words`: a Japanese word anywhere, a Latin one
 * (LATIN_TEXT) as a whole word only, as English is read here (farmer, not farmers' in 'farmersmarket').
 */
export function wordMatcher(words: readonly string[]): (text: string) => boolean {
  const japanese = words.filter((w) => !LATIN_TEXT.test(w));
  const latin = words.filter((w) => LATIN_TEXT.test(w));
  const whole = latin.length > 0 ? new RegExp(`(?<![a-z0-9])(?:${latin.map(escapeRegExp).join('|')})(?![a-z0-9])`, 'u') : null;
  return (text) => japanese.some((w) => text.includes(w)) || whole?.test(text) === true;
}
/** An English word or phrase as a pattern of whole words. */
const englishPattern = (en: string): RegExp => new RegExp(`(?<![a-z0-9&])${escapeRegExp(en)}(?![a-z0-9&])`, 'gu');
const NEED_OF = new Map(NEEDS);
// A word that is its phrase's need written out (自動車整備 -> 自動車整備業, typed as 自動車整備業) stays that word.
for (const [phrase, word] of NEEDS) {
  const w = word.normalize('NFKC').toLowerCase();
  if (w !== phrase && w.startsWith(phrase) && !NEED_OF.has(w)) NEED_OF.set(w, word);
}
/** The phrases of the needs table (and the needs written out), the longest first. */
const NEED_LIST = [...NEED_OF].sort((a, b) => b[0].length - a[0].length);

/**
 * Text with every phrase of the needs table replaced by its need, set apart by spaces, the longest phrase first
 * wherever it stands; a need put in is not read again (自動車整備 inside the 自動車整備業 car repair was read as):
 * it stands as a private-use mark until every phrase was tried.
 */
function replaceNeeds(text: string): string {
  let out = text;
  const put: string[] = [];
  for (const [phrase, need] of NEED_LIST) {
    if (!out.includes(phrase)) continue;
    out = out.replaceAll(phrase, `\uE000${String.fromCharCode(0xe100 + put.length)}`);
    put.push(need);
  }
  return put.length === 0 ? out : out.replace(/\uE000(.)/gu, (_m, mark: string) => ` ${put[mark.charCodeAt(0) - 0xe100]} `);
}

/** The words the needs table reads situations into (each word of a value of several: 障害者 雇用): a need, as a dictionary word is. */
const NEED_WORDS = new Set(Object.values(vocabulary.needs).flatMap((word) => norm(word).split(' ')));

// The ending of a wish or a complaint (〜したい, 〜が来ない): the verb before
// it says what the person does, not what a programme is named; the needs
// table reads the verbs that matter (雇いたい -> 雇用) before this runs.
const AUXILIARIES = new Set(['たい', 'たいが', 'たく', 'ない', 'ないので', 'なく', 'たいけど', 'てほしい', 'させたい', 'られない'].map(norm));
const KANA_END = /[\p{Script=Hiragana}]$/u;
/** A wish or a trouble said in a sentence (〜したい, 〜がほしい, 困って …). */
const WISH = /たい|ほしい|欲しい|困って|悩んで/u;
const HAS_KANJI = /\p{Script=Han}/u;
const HIRAGANA = /^[\p{Script=Hiragana}ー]+$/u;
/** Katakana next to hiragana: a kana-only chunk of two scripts (テイクアウトを). */
const MIXED_KANA = /\p{Script=Katakana}.*\p{Script=Hiragana}|\p{Script=Hiragana}.*\p{Script=Katakana}/u;

/** The municipality a word names (浜松市), with its prefecture (the bundled master); null for none, or a name two prefectures share. */
function municipalityOf(word: string): Place | null {
  const place = resolvePlace(word);
  return isPlace(place) && place.municipality !== null ? place : null;
}

/** The prefecture of a city named without its 市 (札幌 -> 北海道), or null. */
function cityPrefecture(word: string): string | null {
  if ([...word].length < 2) return null;
  const place = resolvePlace(`${word}市`);
  return isPlace(place) && place.municipality === `${word}市` ? place.prefecture : null;
}

/** The words without wish endings and the verb each ends (開き+たい, 雇いたい, 来+ない). */
function dropVerbs(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const text = norm(w.text);
    if (AUXILIARIES.has(text)) {
      const prev = out[out.length - 1];
      if (prev && prev.kind === 'content' && KANA_END.test(prev.text)) out.pop();
      continue;
    }
    if (w.kind === 'content' && HAS_KANJI.test(text) && /(たい|たいが|ない)$/u.test(text) && [...text].length <= 6) continue;
    // The rest of a verb the needs table read (雇+いたい, 作+りたい, 後継ぎ+がいない): a wish ending of hiragana alone.
    if (w.hiragana === true && /(たい|たいが|たく|ない)$/u.test(text) && [...text].length <= 5) continue;
    out.push(w);
  }
  return out;
}

/** Text with every need phrase replaced by its word, set apart by spaces. */
const SOFT = new Set(vocabulary.soft.map(norm));

// The programme vocabulary's purpose and industry words (@jp-support/vocab), in the search normalisation.
const PURPOSE_WORDS = PURPOSE_VOCABULARY.flatMap((p) => [p.term, ...p.match])
  .map(norm)
  .filter((w) => [...w].length >= 2);
/** Each industry's match words (of two characters or more) with its JSIC major. */
const INDUSTRY_MATCH: [string, string][] = INDUSTRIES.flatMap((i) =>
  i.match.map((m): [string, string] => [norm(m), i.code]).filter(([m]) => [...m].length >= 2),
);
const INDUSTRY_WORDS = INDUSTRY_MATCH.map(([w]) => w);
/** The JSIC major whose industry word the text holds (the vocabulary's order), or null. */
const majorOfWords = (text: string): string | null => INDUSTRY_MATCH.find(([m]) => text.includes(m))?.[1] ?? null;

/** A term that names a purpose of support: one of its spellings holds a purpose word (設備更新: 設備). */
function isPurposeTerm(g: TermGroup): boolean {
  return g.alternatives.some((a) => PURPOSE_WORDS.some((w) => a.includes(w)));
}

// Each purpose's words (its term and match words, @jp-support/vocab) in the search normalisation; the Latin
// ones (IT, EV, DX) are read as whole words, as the vocabulary reads them in a programme's text.
const PURPOSE_READINGS = PURPOSE_VOCABULARY.map((p) => {
  const words = [p.term, ...p.match, ...p.en].map(norm).filter((w) => [...w].length >= 2);
  const latin = words.filter((w) => LATIN_TEXT.test(w));
  return {
    term: p.term,
    words: words.filter((w) => !LATIN_TEXT.test(w)),
    latin: latin.length > 0 ? new RegExp(`(?<![a-z0-9])(?:${latin.map(escapeRegExp).join('|')})(?![a-z0-9])`, 'u') : null,
  };
});

/**
 * The purposes a term of q names (設備更新: 設備投資; 雇入れ助成: 雇用・人材確保; ev: 省エネ・脱炭素): the
 * vocabulary's purposes whose words occur in one of its spellings. A programme tagged with one ranks up
 * (rank.ts: the query part `purpose` and the need's fit), whatever words its name uses for it.
 */
function purposesOfTerm(g: TermGroup): string[] {
  return PURPOSE_READINGS.filter((p) => p.words.some((w) => g.term.includes(w)) || p.latin?.test(g.term) === true).map((p) => p.term);
}

// The industry words of the trades that use the general SME programmes: not farming, forestry or fishery (JSIC A, B),
// whose programmes are their own (decision 0384).
const GENERAL_TRADE_WORDS = INDUSTRY_MATCH.filter(([, code]) => code !== 'A' && code !== 'B').map(([w]) => w);

/**
 * The purposes q names. A trade's word is also a purpose's (旅館: 観光); beside a word of what is wanted
 * (ゲストハウスを始めたい: 旅館 創業) it says who asks, not what for: only the other words' purposes count. A farm's,
 * forest's or fishery's word keeps its purpose (林業 機械: their own machinery programmes).
 */
function purposesOfQuery(groups: TermGroup[]): string[] {
  const namesTrade = (g: TermGroup): boolean => GENERAL_TRADE_WORDS.some((w) => g.term.includes(w));
  const wanted = groups.filter((g) => !namesTrade(g) && purposesOfTerm(g).length > 0);
  return [...new Set((wanted.length > 0 ? wanted : groups).flatMap(purposesOfTerm))];
}

/** A term that names a trade and no purpose (飲食店, 倉庫). */
function isTradeTerm(g: TermGroup): boolean {
  return !isPurposeTerm(g) && g.alternatives.some((a) => INDUSTRY_WORDS.some((w) => a.includes(w)));
}

/** Words that say who is asking, with the audiences each stands for (askers_groups expanded, a group may name another). */
const GROUPS = vocabulary.askers_groups as Record<string, string[]>;
const expandGroup = (name: string): string[] => (GROUPS[name] ? [...new Set(GROUPS[name].flatMap(expandGroup))] : [name]);
const ASKERS: [string, string[]][] = Object.entries(vocabulary.askers as Record<string, string[]>).map(([word, names]) => [
  norm(word),
  [...new Set(names.flatMap(expandGroup))],
]);
const LATIN_WORD = /^[a-z0-9&][a-z0-9& .-]*$/u;
// The asker words of other applicants than a business (NPO, 研究者, 自治体): a business's (会社, 社員, 中小企業) often
// names its programmes (中小企業 研究開発), theirs is who asks.
const ASKER_WORDS = new Set(
  Object.entries(vocabulary.askers as Record<string, string[]>)
    .filter(([, names]) => !names.includes('business'))
    .map(([word]) => norm(word)),
);

/**
 * A term that only says who asks (NPO, 研究者, 会社): an asker word that names no purpose and no trade. Beside
 * the words of what is wanted it ranks (the fit part prefers the asker's programmes) and does not filter.
 */
const isAskerOnly = (g: TermGroup): boolean => ASKER_WORDS.has(g.term) && purposesOfTerm(g).length === 0 && !isTradeTerm(g);

const ENTERPRISE_NEEDS = vocabulary.enterprise_needs.map(norm);
/** The askers group `enterprise` expanded: a business, a farm or a care provider. */
export const ENTERPRISE = expandGroup('enterprise');

/** Whether `text` holds `word` (a Latin word only as a whole word). */
function holds(text: string, word: string): boolean {
  const at = text.indexOf(word);
  if (at < 0) return false;
  return !LATIN_WORD.test(word) || !(/[a-z0-9]/u.test(text[at - 1] ?? ' ') || /[a-z0-9]/u.test(text[at + word.length] ?? ' '));
}

// A care, welfare or medical provider named by its field and its kind of body (障害福祉サービス事業所, 福祉施設,
// 保育事業者): the words the programmes name them with (ingest/tagging.ts#CARE_PROVIDER), decision 0339.
const CARE_PROVIDER_ASKER = /(?:介護|福祉|障害児?|障がい児?|保育|医療)[^\s、。]{0,12}(?:事業所|事業者|施設|法人)/u;
const CARE_PROVIDER_AUDIENCES = ['医療・福祉事業者', 'business'];
const CARE_BODY_WORDS = new Set(['事業所', '事業者', '施設', '法人', 'サービス', 'サービス事業所'].map((w) => norm(w)));

/**
 * The audiences asking, in vocabulary order: those the words of q name
 * (社員 -> the business audiences), else, when q names a need only an
 * enterprise has (展示会, 事業承継 …, in its words or the needs it was read
 * as), an enterprise's.
 */
function askersIn(text: string): string[] {
  const out = new Set<string>();
  if (CARE_PROVIDER_ASKER.test(text)) for (const a of CARE_PROVIDER_AUDIENCES.flatMap(expandGroup)) out.add(a);
  // An English asker word in the plural too (farmers, clinics).
  for (const [word, audiences] of ASKERS) if (holds(text, word) || (LATIN_WORD.test(word) && holds(text, `${word}s`))) for (const a of audiences) out.add(a);
  if (out.size === 0 && ENTERPRISE_NEEDS.some((w) => holds(text, w))) return ENTERPRISE;
  return [...out];
}

/** Who asks: the asker words' audiences, else those of the trade q names (a 塗装業 is a business, a 養殖業 a fisher). */
const askersOrTrade = (askers: string[], trade: string[]): string[] => (askers.length > 0 ? askers : trade);

// English spellings of the programme vocabulary's purposes (@jp-support/vocab:
// machinery, telework, cash flow …), each read as its purpose's first match
// word (設備投資, 働き方, 資金繰り), as whole words only; the needs table and
// the synonyms read the words they know their own way first. A spelling two
// purposes share (environment, education) or made of generic words only
// (business support) says too little and is left as typed.
const ENGLISH: [RegExp, string][] = (() => {
  const owners = new Map<string, Set<string>>();
  for (const p of PURPOSE_VOCABULARY) for (const en of p.en) owners.set(en, (owners.get(en) ?? new Set()).add(p.match[0]));
  return [...owners]
    .filter(
      ([en, words]) =>
        words.size === 1 &&
        en.length >= 4 &&
        !NEED_PHRASES.has(en) &&
        !SYNONYMS.has(en) &&
        !Object.hasOwn(vocabulary.english, en) &&
        !en.split(' ').every((w) => GENERIC.has(w) || STOP.has(w)),
    )
    .sort((a, b) => b[0].length - a[0].length)
    .map(([en, words]): [RegExp, string] => [englishPattern(en), [...words][0].normalize('NFKC').toLowerCase()]);
})();

// English an owner types, read as the Japanese words a Japanese owner would
// type for the same need (vocabulary.json `english`: kinds of support,
// programmes known by name, who asks, trades, topics, cities in romaji), as
// whole words, the longest first, after the needs table and before the
// purposes' spellings above; the Japanese reading then applies as it does
// to Japanese (construction -> 建設業, a trade; Sapporo -> 札幌市, a place).
/** A word as the needs table reads it (印刷業 -> 製造業): what an English word is read as, once, when the table is built. */
function readByNeeds(word: string): string {
  return replaceNeeds(word).trim();
}
const ENGLISH_TABLE = vocabulary.english as Record<string, string>;
const ENGLISH_ENTRIES = Object.entries(ENGLISH_TABLE)
  .map(([en, word]): [string, string] => [en, word.normalize('NFKC').toLowerCase()])
  .sort((a, b) => b[0].length - a[0].length);
const ENGLISH_WORDS_TABLE: [RegExp, string][] = ENGLISH_ENTRIES.map(([en, word]) => [englishPattern(en), readByNeeds(word)]);

/** The English phrases that hold a Latin phrase of the needs table (childcare facility holds childcare): read before it. */
const LATIN_NEEDS = [...NEED_PHRASES].filter((phrase) => LATIN_TEXT.test(phrase));
const ENGLISH_BEFORE_NEEDS: [RegExp, string][] = ENGLISH_ENTRIES.filter(([en]) =>
  LATIN_NEEDS.some((phrase) => phrase.length < en.length && en.includes(phrase)),
).map(([en, word]) => [englishPattern(en), word]);

/** English words the reading knows (the tables, stopwords, generic words, synonyms): a plural of one is read as it. */
// The purposes' English spellings are not among them: they are read as whole words only (homes is not home).
const KNOWN_LATIN = new Set([...Object.keys(ENGLISH_TABLE), ...NEED_PHRASES]);
const knownLatin = (w: string): boolean => KNOWN_LATIN.has(w) || STOP.has(w) || GENERIC.has(w) || SYNONYMS.has(w);

/** A plural the tables do not hold, read as its singular when they hold that (subsidies -> subsidy, salons -> salon). */
function singulars(text: string): string {
  return text.replace(/(?<![a-z0-9&])[a-z][a-z-]*s(?![a-z0-9&])/gu, (w) => {
    if (knownLatin(w)) return w;
    for (const singular of [w.replace(/ies$/u, 'y'), w.replace(/es$/u, ''), w.slice(0, -1)]) if (singular !== w && knownLatin(singular)) return singular;
    return w;
  });
}

/** The words English spellings are read as: needs, as the needs table's words are (kept whole, and a sentence's concept). */
const ENGLISH_WORDS = new Set(ENGLISH.map(([, word]) => norm(word)));

// An amount in q (500万円くらい, 1,000万円以上, 1.5億円, 300万): what the
// programme should fund, not a word its name holds. Read as 万円 and taken
// out of the text with the words around it that only qualify it.
const AMOUNT = /(?:上限|最大)?\s*(\d[\d,]*(?:\.\d+)?)\s*(億|千万|万)\s*円?\s*(?:くらい|ぐらい|程度|前後|以上|以下|まで|ほど)?/gu;
const UNIT_MAN_YEN: Record<string, number> = { 万: 1, 千万: 1000, 億: 10000 };

/** The text without its amounts, and the largest amount named (万円), or null. */
function takeAmounts(text: string): { text: string; amount: number | null } {
  let amount: number | null = null;
  const rest = text.replace(AMOUNT, (_m, digits: string, unit: string) => {
    const value = Number(digits.replaceAll(',', '')) * UNIT_MAN_YEN[unit];
    if (Number.isFinite(value) && value > 0) amount = Math.max(amount ?? 0, value);
    return ' ';
  });
  return { text: rest, amount };
}

// Spellings of the vocabulary's words from Sudachi's synonym dictionary
// (sudachi-variants.json, generated by scripts/sudachi-variants.ts: 借り換え ->
// 借換, ソーラーパネル -> solar panel, website -> ウェブサイト), read as the word
// they spell: a Latin one as whole words, a Japanese one as a run of ICU's words.
const VARIANTS = new Map(Object.entries(sudachi.variants as Record<string, string>));
const LATIN_VARIANTS: [RegExp, string][] = [...VARIANTS]
  .filter(([v]) => LATIN_TEXT.test(v))
  .sort((a, b) => b[0].length - a[0].length)
  .map(([v, word]) => [englishPattern(v), word]);
const LONGEST_VARIANT = 4;

function spellVariants(text: string): string {
  let out = text;
  if (/[a-z]/u.test(out)) for (const [pattern, word] of LATIN_VARIANTS) out = out.replace(pattern, word);
  const pieces = [...segmenter.segment(out)].map((p) => p.segment);
  const words: string[] = [];
  for (let i = 0; i < pieces.length; ) {
    let taken = 0;
    for (let j = Math.min(pieces.length, i + LONGEST_VARIANT); j > i && taken === 0; j--) {
      const joined = pieces.slice(i, j).join('');
      if (VARIANTS.has(joined) && !LATIN_TEXT.test(joined)) {
        words.push(` ${VARIANTS.get(joined)} `);
        taken = j - i;
      }
    }
    if (taken === 0) {
      words.push(pieces[i]);
      taken = 1;
    }
    i += taken;
  }
  return words.join('');
}

/** The needs table, then Sudachi's spellings (which may reach a phrase of the table), then the table again. */
function rewrite(text: string): string {
  const once = rewriteNeeds(text);
  const spelled = spellVariants(once);
  return spelled === once ? once : rewriteNeeds(spelled);
}

function rewriteNeeds(text: string): string {
  const latin = /[a-z]{2}/u.test(text);
  let out = latin ? singulars(text) : text;
  // An English phrase longer than a needs phrase it holds (childcare facility, minimum wage) is read first.
  if (latin) for (const [pattern, word] of ENGLISH_BEFORE_NEEDS) out = out.replace(pattern, ` ${word} `);
  out = replaceNeeds(out);
  if (/[a-z]{2}/u.test(out)) {
    for (const [pattern, word] of ENGLISH_WORDS_TABLE) out = out.replace(pattern, ` ${word} `);
  }
  if (/[a-z]{4}/u.test(out)) for (const [pattern, word] of ENGLISH) out = out.replace(pattern, ` ${word} `);
  return out;
}

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
// Separators between words, beyond spaces.
const BREAKS = /[\s、。，．,.!！?？・･／/|｜「」『』【】（）()［］[\]〈〉《》"'“”‘’:：;；~〜]+/u;

type Word = { text: string; kind: 'place' | 'dict' | 'generic' | 'stop' | 'content'; prefecture?: string; alternatives?: string[]; hiragana?: boolean };

function prefectureOf(word: string): string | null {
  if ([...word].length < 2) return null;
  return normalizePrefecture(word);
}

function classify(raw: string): Word {
  const text = norm(raw);
  const prefecture = prefectureOf(raw);
  if (prefecture) return { text, kind: 'place', prefecture };
  if (STOP.has(text)) return { text, kind: 'stop' };
  if (GENERIC.has(text)) return { text, kind: 'generic' };
  const synonyms = SYNONYMS.get(text);
  if (synonyms) return { text, kind: 'dict', alternatives: synonyms };
  const spelled = SPELLINGS.get(text);
  if (spelled) return { text, kind: 'content', alternatives: spelled };
  const trade = tradeStem(text);
  const hiragana = HIRAGANA.test(raw.trim());
  return trade ? { text, kind: 'content', alternatives: [text, trade] } : { text, kind: 'content', ...(hiragana ? { hiragana } : {}) };
}

// A trade named as a business (建設業, 塗装業, 工務店, 歯科医院, ラーメン店, 印刷屋):
// its form says a trade (業, 業者, 店, 屋, 院, 事務所, 工房; vocabulary.json
// `not_trades` lists the words of that form that are not: 事業, 創業, 出店 …),
// and its JSIC major is the programme vocabulary's industry whose match word
// it holds (建設 -> D), else none known. Typed with no need beside it, it asks
// for what its kind of business uses, as a match profile of that trade does
// (`industry_needs`: the general SME programmes by default, 製造業's for a
// factory, 生活衛生業's for a salon): a consultant names those, and the
// trade's own schemes, which its word still finds first.
const TRADE_FORM = /(?:業|業者|店|屋|院|社|事務所|工房)$/u;
const NOT_TRADES = new Set((vocabulary.not_trades as string[]).map(norm));
const INDUSTRY_NEEDS = vocabulary.industry_needs as Record<string, string>;
const INDUSTRY_ASKERS = vocabulary.industry_askers as Record<string, string[]>;
/** The JSIC major of a word that names a trade as a business ('default' when no industry's word is in it), or null. */
function tradeMajor(text: string, companyNamed: boolean): string | null {
  if (NOT_TRADES.has(text) || [...text].length < 2 || SYNONYMS.has(text)) return null;
  const major = majorOfWords(text);
  // A word beside 会社 or company (建設+会社, 旅行+会社, printing company) names the trade as well.
  return TRADE_FORM.test(text) || companyNamed ? (major ?? 'default') : null;
}
/** The JSIC major of a term that names a trade in a trade's form (製造業, 飲食店, 自動車整備業), or null. */
function tradeIndustry(term: string): string | null {
  return NOT_TRADES.has(term) || !TRADE_FORM.test(term) ? null : majorOfWords(term);
}
/** Words that name a company of a trade beside the trade's word (建設+会社). */
const COMPANY_WORDS = new Set(['会社', 'company', 'companies', 'firm', 'firms'].map(norm));
/** Majors whose trades the general SME programmes do not serve (clinics, hospitals: 医療法人 are no SMEs there): their word alone. */
const NO_GENERAL = new Set(vocabulary.trades_without_general_programmes as string[]);

// A trade or its members named with 業 / 業者 / 事業者 (水産業, 酒造業, 観光事業者):
// the schemes for it name the trade itself (水産加工, 酒造好適米, 観光振興), so
// the stem is a spelling of the term too. A stem of one character (農, 林) says too little.
const TRADE_SUFFIX = /(?:事業者|業者|業)$/u;

/** The trade a word names with its suffix (水産業 -> 水産), or null. */
function tradeStem(text: string): string | null {
  const stem = text.replace(TRADE_SUFFIX, '');
  return stem !== text && [...stem].length >= 2 && HAS_KANJI.test(stem) && !stem.endsWith('事') ? stem : null;
}

const known = (raw: string): boolean => {
  const text = norm(raw);
  return prefectureOf(raw) !== null || STOP.has(text) || GENERIC.has(text) || SYNONYMS.has(text) || SPELLINGS.has(text) || ENGLISH_WORDS.has(text);
};

const KATAKANA_PIECE = /^[\p{Script=Katakana}ー]+$/u;

/** Adjacent pieces of katakana only, joined. */
function joinKatakana(pieces: string[]): string[] {
  const out: string[] = [];
  for (const p of pieces) {
    const last = out.length - 1;
    if (last >= 0 && KATAKANA_PIECE.test(p) && KATAKANA_PIECE.test(out[last])) out[last] += p;
    else out.push(p);
  }
  return out;
}

/** The words of one chunk (no spaces): dictionary words first, then ICU's segmentation. */
function wordsOf(chunk: string): Word[] {
  const whole = classify(chunk);
  // A chunk of kana of one script (ものづくりほじょきん typed in hiragana) is read whole: ICU cuts such text
  // anywhere. Katakana followed by hiragana (テイクアウトを) is a word and its particle, and is segmented.
  if (whole.kind !== 'content' || (isKanaOnly(norm(chunk)) && !MIXED_KANA.test(chunk)) || /^[a-z0-9&+-]+$/u.test(chunk)) return [whole];
  // A katakana compound is one word: ICU cuts one it does not know into loanwords and syllables (サイバーセキュリティ
  // -> サイ + バー + セキュリティ), each then a term that every result must hold (decision 0338).
  const pieces = joinKatakana([...segmenter.segment(chunk)].map((s) => s.segment).filter((s) => s.trim() !== ''));
  const words: Word[] = [];
  /** The longest run of pieces from `i` that the dictionary knows as one word: its length in pieces (0: none) and text. */
  const knownRun = (i: number): { taken: number; text: string } => {
    let taken = 0;
    let text = '';
    for (let j = i, joined = ''; j < pieces.length && [...joined].length < LONGEST_ENTRY; j++) {
      joined += pieces[j];
      if (known(joined)) {
        taken = j - i + 1;
        text = joined;
      }
    }
    return { taken, text };
  };
  for (let i = 0; i < pieces.length; ) {
    let { taken, text } = knownRun(i);
    if (taken === 0) {
      taken = 1;
      text = pieces[i];
    }
    words.push(classify(text));
    i += taken;
  }
  // A lone character (者, 化, 都, 方, a kana of a cut word …) is part of its
  // neighbour, not a word of its own: a content or dictionary word before it
  // first, else the word after it (a generic word too: 業+支援 -> 業支援), else
  // a generic word before it (支援+事 -> 支援事). Such a one-character term
  // would match thousands of programmes and say nothing.
  const merged: Word[] = [];
  const joinable = (w: Word | undefined, generic: boolean): w is Word =>
    w !== undefined && (w.kind === 'content' || w.kind === 'dict' || (generic && w.kind === 'generic'));
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.kind === 'content' && [...w.text].length === 1 && words.length > 1) {
      const prev = merged[merged.length - 1];
      const next = words[i + 1];
      if (joinable(prev, false)) {
        merged[merged.length - 1] = classify(prev.text + w.text);
        continue;
      }
      if (joinable(next, true)) {
        words[i + 1] = classify(w.text + next.text);
        continue;
      }
      const before = merged[merged.length - 1] as Word | undefined;
      if (joinable(before, true)) {
        merged[merged.length - 1] = classify(before.text + w.text);
        continue;
      }
      // Alone between stopwords: dropped when the query has other words.
      if (words.some((o) => o !== w && o.kind !== 'stop')) continue;
    }
    merged.push(w);
  }
  return merged;
}

// A word that names a kind of support and filters (融資, 税制, 研修; 補助金 is generic
// and does not): a programme of that kind holds it, whatever its name says
// (新規開業資金 and 創業関連保証 are loans). The catalogue's kind codes (loan,
// tax_measure, training) are in the searched text of every programme of the kind.
const KIND_CODE = /^[a-z_]+$/u;

/** The alternatives of a term, with the kind codes its word names. */
function withKinds(text: string, alternatives: string[]): string[] {
  const codes = (KINDS.get(text) ?? []).filter((k) => KIND_CODE.test(k) && !alternatives.includes(k));
  return codes.length === 0 ? alternatives : [...alternatives, ...codes];
}

/** Queries understood lately (a request understands its q in the route and in the engine; searches repeat). */
const understoodCache = new Lru<string, UnderstoodQuery | null>(5_000);

/**
 * Understand free text. Returns null for text with nothing to search. The
 * answer is shared between callers (memoised), so it is frozen.
 */
export function understandQuery(q: string): UnderstoodQuery | null {
  const cached = understoodCache.get(q);
  if (cached !== undefined) return cached;
  const understood = understand(q);
  if (understood) deepFreeze(understood);
  understoodCache.set(q, understood);
  return understood;
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) deepFreeze(v as object);
  return Object.freeze(o);
}

function understand(q: string): UnderstoodQuery | null {
  const normalized = norm(q);
  if (normalized === '') return null;
  // Segment the NFKC text (katakana kept, so ICU sees words); fold afterwards.
  const { text: folded, amount } = takeAmounts(q.normalize('NFKC').toLowerCase());
  const rewritten = rewrite(folded);
  const chunks = rewritten.split(BREAKS).filter(Boolean);
  // A sentence (a phrase of the needs table, or a wish ending dropped) is read
  // into its need; a list of keywords is matched as typed.
  let sentence = rewritten !== folded || WISH.test(folded);
  const required: TermGroup[] = [];
  const phrases: string[] = [];
  const generic: string[] = [];
  const prefectures: string[] = [];
  const municipalities: Place[] = [];
  const kinds = new Set<string>();
  const places: string[] = [];
  const seen = new Set<string>();
  const optional: TermGroup[] = [];
  /** Content words the vocabulary does not know (candidates for optional). */
  const unknown = new Set<string>();
  /** Unknown words of hiragana (した, ばかり): a sentence's inflections. */
  const inflections = new Set<string>();
  let concepts = 0;
  for (const chunk of chunks) {
    const segmented = wordsOf(chunk);
    const words = dropVerbs(segmented);
    if (words.length !== segmented.length) sentence = true;
    // A word of hiragana the vocabulary does not know, cut from a chunk with kanji or katakana
    // (創業した+ばかり+で融資が受け+にくい): the inflection of a sentence, not a word of a name.
    if (segmented.length > 1 && segmented.some((w) => w.hiragana === true)) sentence = true;
    let run: string[] = [];
    const endRun = (): void => {
      if (run.length > 1) phrases.push(run.join(''));
      run = [];
    };
    for (const w of words) {
      const text = norm(w.text);
      for (const k of KINDS.get(text) ?? []) kinds.add(k);
      if (w.kind === 'stop' || text === '') {
        endRun();
        continue;
      }
      if (w.kind === 'place') {
        endRun();
        if (!prefectures.includes(w.prefecture!)) prefectures.push(w.prefecture!);
        places.push(w.prefecture!);
        continue;
      }
      run.push(text);
      if (seen.has(text)) continue;
      seen.add(text);
      const municipality = w.kind === 'content' ? municipalityOf(w.text) : null;
      if (SOFT.has(text)) unknown.add(text);
      else if (w.kind === 'dict' || NEED_WORDS.has(text) || ENGLISH_WORDS.has(text)) concepts++;
      else if (municipality !== null) {
        // A municipality (浜松市) is a place that ranks and a word of the names, not an unknown word.
        if (!municipalities.some((m) => m.municipality === municipality.municipality)) municipalities.push(municipality);
      } else if (w.kind === 'content') {
        unknown.add(text);
        if (w.hiragana === true) inflections.add(text);
        // A city named without 市 (札幌, 福岡市 is a municipality already): its prefecture ranks.
        const city = cityPrefecture(w.text);
        if (city && !prefectures.includes(city)) prefectures.push(city);
      }
      if (w.kind === 'generic') generic.push(text);
      else required.push({ term: text, alternatives: withKinds(text, (w.alternatives ?? [text]).map(norm)), ...(SOFT.has(text) ? { soft: true } : {}) });
    }
    endRun();
  }
  // A sentence read into a need (a word of the vocabulary or of the needs
  // table): its other, unknown words rank but do not filter.
  if (sentence && concepts > 0 && unknown.size > 0 && required.length > unknown.size) {
    for (let i = required.length - 1; i >= 0; i--) {
      if (unknown.has(required[i].term)) optional.unshift(...required.splice(i, 1));
    }
  }
  // A sentence read into no need (取引先が倒産した): its inflections of hiragana still only rank.
  if (sentence && inflections.size > 0 && required.some((g) => !inflections.has(g.term))) {
    for (let i = required.length - 1; i >= 0; i--) {
      if (inflections.has(required[i].term)) optional.unshift(...required.splice(i, 1));
    }
  }
  // A sentence that names what is wanted (a purpose: 創業, 省力化) and the
  // trade it is for (飲食店, 倉庫): the purpose filters, the trade ranks, so
  // the national programmes for that purpose, which name no trade, are found.
  if (sentence && required.some((g) => isPurposeTerm(g))) {
    for (let i = required.length - 1; i >= 0; i--) {
      if (isTradeTerm(required[i]) && required.length > 1) optional.unshift(...required.splice(i, 1));
    }
  }
  // A care provider named as the asker (障害福祉サービス事業所 補助金): its kind of body and service only say who asks
  // (decision 0339); the field (障害, 福祉) filters, the programmes for its workers and facilities need not say 事業所.
  if (CARE_PROVIDER_ASKER.test(normalized)) {
    const bodyWords = required.filter((g) => CARE_BODY_WORDS.has(g.term));
    if (bodyWords.length > 0 && bodyWords.length < required.length) {
      for (let i = required.length - 1; i >= 0; i--) if (CARE_BODY_WORDS.has(required[i].term)) optional.unshift(...required.splice(i, 1));
    }
  }
  // The purposes the terms name, read before a trade's terms take its kind of business's programmes as spellings.
  const purposes = purposesOfQuery([...required, ...optional]);
  const industries = [...new Set([...required, ...optional].map((g) => tradeIndustry(g.term)).filter((m): m is string => m !== null))];
  // Who asks, beside what is wanted (NPOで子どもの居場所を作りたい: npo beside 子ども 居場所): it ranks, it does not filter.
  // One word left alone is too broad to stand for the need (NPOの活動資金: 活動): then the asker still filters.
  if (required.filter((g) => !isAskerOnly(g)).length >= 2) {
    for (let i = required.length - 1; i >= 0; i--) {
      if (isAskerOnly(required[i])) optional.unshift(...required.splice(i, 1));
    }
  }
  // A trade typed with no need beside it (建設業, 塗装業 補助金, construction company): its word, or the
  // programmes its kind of business uses (the concept of its major's industry_needs, at a synonym's weight).
  let tradeAskers: string[] = [];
  const companyNamed = generic.some((w) => COMPANY_WORDS.has(w));
  const trades = required.map((g) => (isPurposeTerm(g) ? null : tradeMajor(g.term, companyNamed)));
  if (concepts === 0 && required.length > 0 && trades.every((m) => m !== null)) {
    for (const [i, g] of required.entries()) {
      const major = trades[i]!;
      const concept = norm(INDUSTRY_NEEDS[major] ?? INDUSTRY_NEEDS.default);
      if (!NO_GENERAL.has(major)) g.alternatives = [...new Set([...g.alternatives, ...(SYNONYMS.get(concept) ?? [concept])])];
      tradeAskers = [...new Set((INDUSTRY_ASKERS[major] ?? INDUSTRY_ASKERS.default).flatMap(expandGroup))];
    }
  }
  // Nothing but generic words or places: they are what there is to match.
  if (required.length === 0) {
    if (places.length > 0) {
      for (const p of [...new Set(places)]) required.push({ term: norm(p), alternatives: [norm(p)] });
    } else if (generic.length > 0) {
      for (const g of generic.splice(0)) required.push({ term: g, alternatives: SYNONYMS.get(g) ?? [g] });
    } else {
      // Only stopwords or punctuation: the text itself is the term (a plain substring search, as before understanding).
      const text = normalized.replace(/\s+/g, '');
      if (text !== '') required.push({ term: text, alternatives: [text] });
    }
  }
  if (required.length === 0) return null;
  return {
    normalized,
    compact: compactKey(q),
    required,
    optional,
    phrases,
    generic,
    prefectures,
    municipalities,
    industries,
    purposes,
    kinds: [...kinds],
    audiences: askersOrTrade(askersIn([normalized, ...required.map((g) => g.term), ...optional.map((g) => g.term)].join(' ')), tradeAskers),
    amountManYen: amount,
    termCount: required.length + optional.length + generic.length,
  };
}
