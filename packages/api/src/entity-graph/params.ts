// Reading the tools' parameters beyond what the route schema checks: lists,
// record kinds, prefectures, dates, free-text terms. A value the tool cannot
// use becomes an AmError (status 200), never an exception.
import { searchNormalize } from '../catalog/search-text.ts';
import { isIsoDate } from '../lib/time.ts';
import { RECORD_KINDS } from './schema.ts';
import { amError, type AmError } from './envelope.ts';
import { normalizePrefecture } from './slots.ts';

/** `a,b` or repeated values -> a list of trimmed non-empty strings. */
export function listParam(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

export function checkKinds(kinds: string[]): AmError | null {
  const bad = kinds.filter((k) => !(RECORD_KINDS as readonly string[]).includes(k));
  return bad.length > 0
    ? amError('invalid_enum', `unknown record kind(s): ${bad.join(', ').slice(0, 200)}`, `kinds must be among: ${RECORD_KINDS.join(', ')}`)
    : null;
}

/** A prefecture (aliases normalised); absent, blank and `national` mean no filter. */
export function prefectureParam(value: string | undefined): { prefecture: string | null; error: AmError | null } {
  if (value === undefined || value.trim() === '' || value === 'national') return { prefecture: null, error: null };
  const p = normalizePrefecture(value);
  return p
    ? { prefecture: p, error: null }
    : {
        prefecture: null,
        error: amError('invalid_enum', 'unknown prefecture', 'use one of the 47 prefecture names, e.g. 東京都, or a short form such as 東京'),
      };
}

/** Up to 8 words of a free-text query, each its own AND-ed term group. */
export const queryTerms = (q: string | undefined): string[][] =>
  q
    ? searchNormalize(q)
        .split(' ')
        .filter(Boolean)
        .slice(0, 8)
        .map((t) => [t])
    : [];

/** `today` (or absent) -> `fallback`; a real date -> itself; anything else -> null. */
export function resolveDate(value: string | undefined, fallback: string): string | null {
  if (value === undefined || value === '' || value.toLowerCase() === 'today') return fallback;
  return isIsoDate(value) ? value : null;
}
