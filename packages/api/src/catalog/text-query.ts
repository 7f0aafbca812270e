// Turning a user's free text into SQL, safely.
//
// The contract: 3+ characters use the trigram full-text index, 1–2 characters
// a substring match. We apply that per whitespace-separated term: every term
// of 3+ characters becomes a quoted FTS5 phrase (so user input never reaches
// FTS5 query syntax: AND, NEAR(, *, ^ and quotes are plain text inside a
// phrase), every shorter term a LIKE pattern with %, _ and \ escaped. Text is
// NFKC-normalised and lower-cased on both sides (the index stores the same
// normalisation), so full-width "ＤＸ" finds "DX".

export const MAX_QUERY_LENGTH = 500;

/** The normalisation applied to indexed text and to queries alike. */
export function normalizeText(text: string): string {
  return (
    text
      .normalize('NFKC')
      // Control characters (NUL included) carry no meaning in a search.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** One FTS5 phrase: the term in double quotes, inner quotes doubled. */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** A LIKE pattern matching `term` anywhere, for use with ESCAPE '\\'. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface TextQuery {
  /** FTS5 MATCH expression (phrases AND-ed), or null when no term has 3+ characters. */
  match: string | null;
  /** LIKE patterns for 1–2 character terms, each to be AND-ed. */
  likes: string[];
}

export function buildTextQuery(q: string): TextQuery | null {
  const normalized = normalizeText(q);
  if (normalized === '') return null;
  const terms = [...new Set(normalized.split(' '))];
  // Length in code points, so an emoji or a kanji counts as one character.
  const long = terms.filter((t) => [...t].length >= 3);
  const short = terms.filter((t) => [...t].length < 3);
  return {
    match: long.length > 0 ? long.map(ftsPhrase).join(' AND ') : null,
    likes: short.map(likeContains),
  };
}
