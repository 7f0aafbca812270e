// The text form programme search works on, shared by ingest (what the index
// and the in-memory search columns hold) and by query understanding (what a
// query is turned into), so both sides always fold the same way.
//
// On top of text-query.ts#normalizeText (NFKC: full/half width; lower case;
// controls and runs of spaces) katakana is folded to hiragana, so スマート,
// ｽﾏｰﾄ and すまーと are one word to the search.
import { normalizeText } from './text-query.ts';
import type { VocabularyEntry } from '@jp-support/vocab';

/** Katakana (ァ..ヶ) to hiragana; the long vowel mark and everything else unchanged. */
export function foldKana(text: string): string {
  // One regex pass gives a flat string (a character-by-character concatenation
  // would leave a rope that every later substring test has to walk).
  return text.replace(/[\u30a1-\u30f6]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));
}

/** NFKC, lower case, one space between words, katakana folded to hiragana. */
export function searchNormalize(text: string): string {
  return foldKana(normalizeText(text));
}

// Separators and brackets that carry no meaning when two names are compared.
const NOISE = /[\s_・･·\-‐－―─〜~:：;；,，、.。'"“”‘’「」『』【】［］[\]()（）〈〉《》<>＜＞!！?？/／|｜]/gu;

/**
 * The key two names are compared by (duplicates, exact-name boost): the
 * search normalisation without spaces, punctuation or brackets, so
 * 「東京都 創業助成事業」 and 「東京都創業助成事業」 are one name.
 */
export function compactKey(text: string): string {
  return searchNormalize(text).replace(NOISE, '');
}

/** What a programme's searched text is made of: a raw record at ingest, a catalogue row in the in-memory index. */
export interface SearchableProgram {
  primary_name: string;
  authority_name?: string | null;
  prefecture?: string | null;
  municipality?: string | null;
  program_kind?: string | null;
  target_types?: readonly string[] | null;
  funding_purpose?: readonly string[] | null;
  description?: string | null;
}

/**
 * The values of a list field (funding_purpose, target_types) that are searched
 * text: those the record published, each with the English spellings of its
 * vocabulary term (新規就農者 is also found as `new farmer`). Values ingest
 * derived from the name (provenance `derived:…`, ingest/tagging.ts) filter,
 * count in facets and feed the purpose signal, but are not searched: a short
 * field of derived words would outrank the names that say them.
 */
export function searchedValues(values: readonly string[] | null | undefined, provenance: unknown, vocabulary: readonly VocabularyEntry[]): readonly string[] {
  if (typeof provenance === 'string' && provenance.startsWith('derived:')) return [];
  return (values ?? []).flatMap((v) => [v, ...(vocabulary.find((e) => e.term === v)?.en ?? [])]);
}

/**
 * The text of each searched field: the catalogue's FTS columns
 * (loaders/programs.ts) and the in-memory search columns
 * (search/index.ts) are both built here, so they cannot drift apart.
 */
export function searchColumns(p: SearchableProgram, aliases: readonly string[], reading: string) {
  return {
    name: searchNormalize(p.primary_name),
    aliases: searchNormalize(aliases.join(' | ')),
    authority: searchNormalize([p.authority_name, p.prefecture, p.municipality].filter(Boolean).join(' ')),
    other: searchNormalize([p.program_kind, ...(p.target_types ?? []), ...(p.funding_purpose ?? [])].filter(Boolean).join(' ')),
    description: searchNormalize(p.description ?? ''),
    reading,
  };
}

const KANA_ONLY = /^[\u3041-\u3096\u30fc]+$/u;

/** True for text of hiragana (after folding) and the long vowel mark only. */
export function isKanaOnly(text: string): boolean {
  return KANA_ONLY.test(text);
}
