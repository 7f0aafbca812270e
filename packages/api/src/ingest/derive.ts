// Fields the dataset does not carry, derived at ingest by documented rules
// (docs/decisions/0010-derived-a-to-j.md, 0011-derived-amount-trust-aliases.md,
// 0012-programs-without-tier.md). Pure functions: tested in
// test/ingest/derive.test.ts.

/** The ten evidence dimensions A–J, in order. */
export const DIMENSIONS = [
  'A_basics',
  'B_target',
  'C_amount',
  'D_schedule',
  'E_region',
  'F_purpose',
  'G_industry',
  'H_legal_basis',
  'I_source',
  'J_statistics',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface RawProgram {
  unified_id: string;
  primary_name: string;
  authority_level?: string | null;
  authority_name?: string | null;
  prefecture?: string | null;
  municipality?: string | null;
  program_kind?: string | null;
  program_kind_group?: string | null;
  official_url?: string | null;
  amount_max_man_yen?: number | null;
  amount_min_man_yen?: number | null;
  subsidy_rate?: number | null;
  tier?: string | null;
  excluded?: boolean | null;
  exclusion_reason?: string | null;
  target_types?: string[] | null;
  funding_purpose?: string[] | null;
  application_window?: Record<string, unknown> | null;
  source_url?: string | null;
  source_fetched_at?: string | null;
  source_checksum?: string | null;
  source_last_check_status?: number | null;
  in_public_index?: boolean | null;
  local_gov_code?: string | null;
  name_as_published?: string | null;
  slug?: string | null;
  jsic_majors?: string[] | null;
  /** What the programme is, from a primary source (a jGrants overlay); the bundled dataset has none. */
  description?: string | null;
}

/** Facts about a program that live in other files of the dataset. */
export interface ProgramContext {
  laws: { law_id: string | null; law_slug: string; law_title: string }[];
}

const nonEmpty = (v: unknown): boolean => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Evidence per dimension: an object of the facts found, or null when there are none. */
export function enrichedDimensions(p: RawProgram, ctx: ProgramContext): Record<Dimension, Record<string, unknown> | null> {
  const pick = (fields: Record<string, unknown>): Record<string, unknown> | null => {
    const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => nonEmpty(v)));
    return Object.keys(kept).length > 0 ? kept : null;
  };
  const window = p.application_window ?? null;
  return {
    // Basics need a name and at least one of kind or administering body.
    A_basics:
      nonEmpty(p.program_kind) || nonEmpty(p.authority_name)
        ? pick({ program_kind: p.program_kind, program_kind_group: p.program_kind_group, authority_name: p.authority_name, authority_level: p.authority_level })
        : null,
    B_target: pick({ target_types: p.target_types }),
    C_amount: pick({ amount_max_man_yen: p.amount_max_man_yen, amount_min_man_yen: p.amount_min_man_yen, subsidy_rate: p.subsidy_rate }),
    D_schedule: window && (nonEmpty(window.start) || nonEmpty(window.end)) ? pick({ ...window }) : null,
    E_region: pick({ authority_level: p.authority_level, prefecture: p.prefecture, municipality: p.municipality }),
    F_purpose: pick({ funding_purpose: p.funding_purpose }),
    G_industry: pick({ jsic_majors: p.jsic_majors }),
    H_legal_basis: ctx.laws.length > 0 ? { laws: ctx.laws } : null,
    I_source: nonEmpty(p.source_url)
      ? pick({
          source_url: p.source_url,
          source_fetched_at: p.source_fetched_at,
          source_checksum: p.source_checksum,
          liveness_status: p.source_last_check_status,
        })
      : null,
    // No acceptance statistics are in the dataset; the dimension stays empty.
    J_statistics: null,
  };
}

export function coverageFrom(enriched: Record<Dimension, unknown>): {
  a_to_j_coverage: Record<Dimension, boolean>;
  coverage_score: number;
  gap_to_tier_s: Dimension[];
} {
  const coverage = Object.fromEntries(DIMENSIONS.map((d) => [d, enriched[d] !== null])) as Record<Dimension, boolean>;
  const covered = DIMENSIONS.filter((d) => coverage[d]).length;
  return {
    a_to_j_coverage: coverage,
    coverage_score: Math.round((covered / DIMENSIONS.length) * 100) / 100,
    gap_to_tier_s: DIMENSIONS.filter((d) => !coverage[d]),
  };
}

/** Bands of the upper grant amount (万円). */
export const AMOUNT_BANDS = [
  { band: 'under_100', below: 100 },
  { band: '100_to_500', below: 500 },
  { band: '500_to_1000', below: 1000 },
  { band: '1000_to_5000', below: 5000 },
  { band: '5000_to_10000', below: 10000 },
  { band: '10000_plus', below: Infinity },
] as const;

export function amountBand(amountMaxManYen: number | null | undefined): string {
  if (amountMaxManYen === null || amountMaxManYen === undefined || !Number.isFinite(amountMaxManYen)) return 'unknown';
  for (const { band, below } of AMOUNT_BANDS) if (amountMaxManYen < below) return band;
  return '10000_plus';
}

/**
 * How far the record can be trusted, from what the dataset says of its source:
 * `verified` = primary source checked live (HTTP 200) or checksummed;
 * `sourced` = a primary source URL with a fetch time; `listed` = a URL only;
 * `unverified` = no source.
 */
export function trustLevel(p: RawProgram): string {
  if (p.source_last_check_status === 200 || nonEmpty(p.source_checksum)) return 'verified';
  if (nonEmpty(p.source_url) && nonEmpty(p.source_fetched_at)) return 'sourced';
  if (nonEmpty(p.source_url)) return 'listed';
  return 'unverified';
}

export const TIER_ORDER: Record<string, number> = { S: 0, A: 1, B: 2, C: 3, X: 4 };

/** Tier and exclusion after the "no tier means X/unclassified" rule (docs/decisions/0012-programs-without-tier.md; programmes get a derived tier at the end of ingest, ingest/derived-tier.ts). */
export function tierAndExclusion(p: RawProgram): { tier: string; excluded: boolean; exclusion_reason: string | null } {
  const tier = p.tier && p.tier in TIER_ORDER ? p.tier : 'X';
  if (tier === 'X') {
    return { tier, excluded: true, exclusion_reason: p.exclusion_reason ?? 'unclassified' };
  }
  return { tier, excluded: p.excluded === true, exclusion_reason: p.exclusion_reason ?? null };
}

/**
 * Other names a program is known by: the name as published (before a code
 * prefix was removed) and the names of its duplicate group, never the
 * primary name itself, without repeats, in a stable order.
 */
export function aliasesFor(p: RawProgram, duplicateGroupNames: readonly string[]): string[] {
  const out: string[] = [];
  const add = (name: string | null | undefined): void => {
    const n = name?.trim();
    if (n && n !== p.primary_name && !out.includes(n)) out.push(n);
  };
  add(p.name_as_published);
  for (const name of duplicateGroupNames) add(name);
  return out;
}

export function applicationWindow(p: RawProgram): { start: string | null; end: string | null } & Record<string, unknown> {
  const w = p.application_window ?? {};
  const date = (v: unknown): string | null => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
  return { ...w, start: date(w.start), end: date(w.end) };
}
