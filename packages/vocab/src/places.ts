// A place a caller names: a prefecture (any alias normalizePrefecture reads)
// or a municipality, alone (大阪市) or after its prefecture (東京都府中市,
// 大阪府 大阪市). One reader for the search's applicable_in and the match
// profile, so both understand the same spellings.
import { MUNICIPALITIES } from './municipalities.ts';
import { PREFECTURE_NAMES, normalizePrefecture } from './prefectures.ts';

export interface Place {
  readonly prefecture: string;
  /** The municipality, or null for the whole prefecture. */
  readonly municipality: string | null;
}

/** Why a name is not a place: unknown, or a municipality name several prefectures have. */
export type PlaceProblem = { readonly problem: 'unknown' } | { readonly problem: 'ambiguous'; readonly prefectures: readonly string[] };

const PREFECTURES_OF = new Map<string, string[]>();
for (const [prefecture, names] of Object.entries(MUNICIPALITIES)) {
  for (const name of names) PREFECTURES_OF.set(name, [...(PREFECTURES_OF.get(name) ?? []), prefecture]);
}
const LONGEST = Math.max(...[...PREFECTURES_OF.keys()].map((n) => n.length));

/** The longest municipality name `text` starts with (大阪市北区 -> 大阪市), among those of `prefecture` when given. */
function municipalityAt(text: string, prefecture: string | null): string | null {
  for (let n = Math.min(LONGEST, text.length); n >= 2; n--) {
    const name = text.slice(0, n);
    const of = PREFECTURES_OF.get(name);
    if (of && (prefecture === null || of.includes(prefecture))) return name;
  }
  return null;
}

/** The place a name means, or why it is none. */
export function resolvePlace(value: string): Place | PlaceProblem {
  const text = value.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const prefecture = normalizePrefecture(text);
  if (prefecture) return { prefecture, municipality: null };
  // A prefecture written before the municipality (full name, with or without a space).
  const compact = text.replace(/ /g, '');
  for (const name of PREFECTURE_NAMES) {
    if (!compact.startsWith(name)) continue;
    const municipality = municipalityAt(compact.slice(name.length), name);
    return municipality ? { prefecture: name, municipality } : { problem: 'unknown' };
  }
  const municipality = municipalityAt(compact, null);
  if (!municipality) return { problem: 'unknown' };
  const prefectures = PREFECTURES_OF.get(municipality)!;
  if (prefectures.length > 1) return { problem: 'ambiguous', prefectures };
  return { prefecture: prefectures[0], municipality };
}

/** Whether resolvePlace found a place. */
export const isPlace = (p: Place | PlaceProblem): p is Place => 'prefecture' in p;
