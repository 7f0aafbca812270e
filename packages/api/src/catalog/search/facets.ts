// Facet counts on request (facets=tier,prefecture,…): how the whole result
// set (not only the page) divides by one field, each programme counted once.
import type { ProgramColumns } from './index.ts';

/** The bucket of programmes without a prefecture, as in /meta's prefecture_counts. */
export const NO_PREFECTURE = '_none';

export const FACETS = {
  tier: (r: ProgramColumns) => [r.tier],
  prefecture: (r: ProgramColumns) => [r.prefecture ?? NO_PREFECTURE],
  authority_level: (r: ProgramColumns) => [r.authorityLevel ?? '_none'],
  funding_purpose: (r: ProgramColumns) => r.fundingPurpose,
  target_type: (r: ProgramColumns) => r.targetTypes,
  program_kind: (r: ProgramColumns) => [r.programKind ?? '_none'],
} as const satisfies Record<string, (r: ProgramColumns) => string[]>;

export type Facet = keyof typeof FACETS;
export const FACET_NAMES = Object.keys(FACETS) as Facet[];

/** `facets=tier,prefecture` (comma-separated, repeatable) -> facet names; null names the unknown one. */
export function parseFacets(values: string[]): { facets: Facet[]; unknown: string | null } {
  const facets: Facet[] = [];
  for (const name of values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!(name in FACETS)) return { facets, unknown: name };
    if (!facets.includes(name as Facet)) facets.push(name as Facet);
  }
  return { facets, unknown: null };
}
