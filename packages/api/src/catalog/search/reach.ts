// Where a programme applies, from its columns: nationwide, or in its
// prefecture (and municipality). The search's applicable_in filter and the
// place signal of the ranking (rank.ts) read it the same way.
import type { Place } from '@jp-support/vocab';
import type { ProgramColumns } from './index.ts';

/**
 * A programme every business in Japan can use: no prefecture, and not issued
 * by a prefecture or municipality (a local record whose place is missing is
 * not nationwide, it is of an unknown place).
 */
export function isNationwide(r: ProgramColumns): boolean {
  return r.prefecture === null && r.authorityLevel !== 'prefecture' && r.authorityLevel !== 'municipality';
}

/** How a programme relates to a place: its municipality's, its prefecture's, nationwide, or elsewhere. */
export type Reach = 'municipality' | 'prefecture' | 'nationwide' | 'elsewhere';

export function reachOf(r: ProgramColumns, place: Place): Reach {
  if (isNationwide(r)) return 'nationwide';
  if (r.prefecture !== place.prefecture) return 'elsewhere';
  if (r.municipality === null) return 'prefecture';
  if (place.municipality === null) return 'municipality';
  return r.municipality === place.municipality ? 'municipality' : 'elsewhere';
}

/** Whether a business in `place` can use the programme: nationwide, its prefecture's, or its municipality's. */
export function appliesIn(r: ProgramColumns, place: Place): boolean {
  return reachOf(r, place) !== 'elsewhere';
}
