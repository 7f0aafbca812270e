// Rules for text that comes from outside (callers, sources) and is shown
// somewhere else (mail, calendars, spreadsheets, links): each rule in one
// place (issue 24, L1 and L2).

/** C0 and C1 controls, DEL, the Unicode line and paragraph separators: a regular-expression class, as text. */
const CONTROL_CLASS = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';
const CONTROL = new RegExp(`[${CONTROL_CLASS}]`, 'g');

/**
 * The pattern of one line of text: no C0 or C1 control character (CR, LF,
 * tab, NUL…), no DEL, no Unicode line or paragraph separator. Every name a
 * caller stores (saved searches, webhook descriptions, advisor names) has
 * it, so a name never writes a line of its own into a calendar (.ics), a
 * mail header or a log.
 */
export const ONE_LINE = `^[^${CONTROL_CLASS}]*$`;

/** `text` with every character ONE_LINE refuses replaced by a space (for what was stored before the rule). */
export function oneLine(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** Why a value failed ONE_LINE, in the words of a 400's detail. */
export const ONE_LINE_DETAIL = 'must be one line of text, without control characters (line breaks, tabs)';

/**
 * `value` when it is an absolute http(s) URL, else null. A URL from a source
 * is served as a link and written into calendars and exports as it is, so
 * anything else (`javascript:`, `data:`, a relative path) is not kept.
 */
export function httpUrlOrNull(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? text : null;
  } catch {
    return null;
  }
}

/** First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell's final text made inert for spreadsheets: a leading apostrophe when
 * it would start a formula, whatever the value was (a list, a JSON object, a
 * string). Numbers are left alone: `-3` is a number, not a formula.
 */
export function spreadsheetSafe(text: string, value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}
