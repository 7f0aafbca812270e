// The programme vocabulary: what a programme is for (purposes), who may apply
// (audiences) and which industries it serves (the JSIC majors A–T), kept as
// data in programme-vocabulary.json. Each entry has its term (the value the
// catalogue stores in funding_purpose, target_types and jsic_majors), English
// spellings a caller may type (`en`) and the words that signal it in Japanese
// text (`match`): ingest tags records with them, search reads queries with them.
import vocabulary from './programme-vocabulary.json' with { type: 'json' };

export interface VocabularyEntry {
  /** The stored value (a purpose or audience term). */
  readonly term: string;
  /** English spellings, lower case. */
  readonly en: readonly string[];
  /** Words whose presence in a text signals the entry. */
  readonly match: readonly string[];
}

export interface IndustryEntry extends VocabularyEntry {
  /** JSIC major code, A–T (the stored value of jsic_majors). */
  readonly code: string;
}

export interface VocabularyHit {
  term: string;
  /** The match word found in the text. */
  matched: string;
}

export interface IndustryHit extends VocabularyHit {
  code: string;
}

export const PURPOSES: readonly VocabularyEntry[] = vocabulary.purposes;
export const AUDIENCES: readonly VocabularyEntry[] = vocabulary.audiences;
export const INDUSTRIES: readonly IndustryEntry[] = vocabulary.industries;

export const PURPOSE_TERMS: readonly string[] = PURPOSES.map((p) => p.term);
export const AUDIENCE_TERMS: readonly string[] = AUDIENCES.map((a) => a.term);
export const INDUSTRY_CODES: readonly string[] = INDUSTRIES.map((i) => i.code);
/** A JSIC code as the API takes it: a major letter (A-T, either case) or a division, group or industry code (2-4 digits). */
export const JSIC_CODE_PATTERN = '^([A-Ta-t]|[0-9]{2,4})$';

/** The fold every lookup uses: NFKC, lower case, trimmed; `_` read as a space (sole_proprietor = sole proprietor). */
const fold = (text: string): string => text.normalize('NFKC').toLowerCase().replaceAll('_', ' ').trim();

/** Spelling -> term: the term itself first, then English spellings, then match words (first entry wins). */
function lookup<E extends VocabularyEntry>(entries: readonly E[], key: (e: E) => string): Map<string, string> {
  const map = new Map<string, string>();
  const add = (spelling: string, value: string): void => {
    const k = fold(spelling);
    if (k !== '' && !map.has(k)) map.set(k, value);
  };
  for (const e of entries) add(e.term, key(e));
  for (const e of entries) for (const s of e.en) add(s, key(e));
  for (const e of entries) for (const s of e.match) add(s, key(e));
  return map;
}

const PURPOSE_BY_SPELLING = lookup(PURPOSES, (e) => e.term);
const AUDIENCE_BY_SPELLING = lookup(AUDIENCES, (e) => e.term);
const INDUSTRY_BY_SPELLING = (() => {
  const map = lookup(INDUSTRIES, (e) => e.code);
  for (const e of INDUSTRIES) map.set(fold(e.code), e.code);
  return map;
})();

/** The purpose term for a term, English spelling or match word ('startup', '起業' -> '創業'), or null. */
export function normalizePurpose(value: string): string | null {
  return PURPOSE_BY_SPELLING.get(fold(value)) ?? null;
}

/** The audience term for a term, English spelling or match word ('sme' -> '中小企業'), or null. */
export function normalizeAudience(value: string): string | null {
  return AUDIENCE_BY_SPELLING.get(fold(value)) ?? null;
}

/** The JSIC major code for a code, term, English spelling or match word ('e', '製造業', 'manufacturing' -> 'E'), or null. */
export function normalizeIndustry(value: string): string | null {
  return INDUSTRY_BY_SPELLING.get(fold(value)) ?? null;
}

const ASCII_WORD = /^[a-z0-9&][a-z0-9& .-]*$/;

/** Does the folded text contain the match word? Latin words only as whole words (IT in IT導入, not in ITEM). */
function contains(folded: string, word: string): boolean {
  const w = fold(word);
  if (!ASCII_WORD.test(w)) return folded.includes(w);
  let from = 0;
  for (;;) {
    const at = folded.indexOf(w, from);
    if (at < 0) return false;
    const before = folded[at - 1] ?? ' ';
    const after = folded[at + w.length] ?? ' ';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
    from = at + 1;
  }
}

function hitsIn<E extends VocabularyEntry>(entries: readonly E[], text: string): (VocabularyHit & { entry: E })[] {
  const folded = fold(text);
  const out: (VocabularyHit & { entry: E })[] = [];
  for (const entry of entries) {
    const matched = entry.match.find((w) => contains(folded, w));
    if (matched !== undefined) out.push({ term: entry.term, matched, entry });
  }
  return out;
}

/** Every purpose one of whose match words occurs in the text, in vocabulary order, with the word found. */
export function purposesIn(text: string): VocabularyHit[] {
  return hitsIn(PURPOSES, text).map(({ term, matched }) => ({ term, matched }));
}

/** Every audience one of whose match words occurs in the text. */
export function audiencesIn(text: string): VocabularyHit[] {
  return hitsIn(AUDIENCES, text).map(({ term, matched }) => ({ term, matched }));
}

/** Every industry one of whose match words occurs in the text. */
export function industriesIn(text: string): IndustryHit[] {
  return hitsIn(INDUSTRIES, text).map(({ term, matched, entry }) => ({ code: entry.code, term, matched }));
}
