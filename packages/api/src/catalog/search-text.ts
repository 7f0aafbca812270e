// The text form programme search works on, shared by ingest (what the index
// and the in-memory search columns hold) and by query understanding (what a
// query is turned into), so both sides always fold the same way.
//
// On top of text-query.ts#normalizeText (NFKC: full/half width; lower case;
// controls and runs of spaces) katakana is folded to hiragana, so スマート,
// ｽﾏｰﾄ and すまーと are one word to the search.
import { normalizeText } from './text-query.ts';

/** Katakana (ァ..ヶ) to hiragana; the long vowel mark and everything else unchanged. */
export function foldKana(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out;
}

/** NFKC, lower case, one space between words, katakana folded to hiragana. */
export function searchNormalize(text: string): string {
  return foldKana(normalizeText(text));
}

// Separators and brackets that carry no meaning when two names are compared.
const NOISE = /[\s_・･·\-‐－―─〜~:：;；,，、.。'"“”‘’「」『』【】［］\[\]()（）〈〉《》<>＜＞!！?？/／|｜]/gu;

/**
 * The key two names are compared by (duplicates, exact-name boost): the
 * search normalisation without spaces, punctuation or brackets, so
 * 「東京都 創業助成事業」 and 「東京都創業助成事業」 are one name.
 */
export function compactKey(text: string): string {
  return searchNormalize(text).replace(NOISE, '');
}

const KANA_ONLY = /^[\u3041-\u3096\u30fc]+$/u;

/** True for text of hiragana (after folding) and the long vowel mark only. */
export function isKanaOnly(text: string): boolean {
  return KANA_ONLY.test(text);
}
