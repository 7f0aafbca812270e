// Dataset statistics for /meta. Computed once per catalogue (it is read-only).
// Programmes are counted as search counts them: canonical records only (one
// programme, one record), so tier_counts add up to a search's total with
// include_excluded.
import type { CatalogDatabase } from '../db.ts';

export interface Meta {
  total_programs: number;
  tier_counts: Record<string, number>;
  prefecture_counts: Record<string, number>;
  exclusion_rules_count: number;
  last_ingested_at: string;
  data_as_of: string;
  record_counts: Record<string, number>;
  /** Programmes with a known closing date: what any deadline answer can cover. */
  programs_with_window: number;
}

export function computeMeta(db: CatalogDatabase): Meta {
  const tierCounts: Record<string, number> = { S: 0, A: 0, B: 0, C: 0, X: 0 };
  for (const r of db.all<{ tier: string; n: number }>('SELECT tier, count(*) AS n FROM programs WHERE canonical_id IS NULL GROUP BY tier')) {
    tierCounts[r.tier] = r.n;
  }
  const prefectureCounts: Record<string, number> = {};
  for (const r of db.all<{ prefecture: string | null; n: number }>(
    'SELECT prefecture, count(*) AS n FROM programs WHERE canonical_id IS NULL GROUP BY prefecture ORDER BY prefecture IS NULL, prefecture',
  )) {
    prefectureCounts[r.prefecture ?? '_none'] = r.n;
  }
  const counts = JSON.parse(db.metaValue('counts') ?? '{}') as Record<string, number>;
  return {
    total_programs: db.get<{ n: number }>('SELECT count(*) AS n FROM programs WHERE canonical_id IS NULL')?.n ?? 0,
    tier_counts: tierCounts,
    prefecture_counts: prefectureCounts,
    exclusion_rules_count: db.get<{ n: number }>('SELECT count(*) AS n FROM exclusion_rules')?.n ?? 0,
    last_ingested_at: db.metaValue('last_ingested_at') ?? '',
    data_as_of: db.metaValue('data_as_of') ?? '',
    record_counts: counts,
    programs_with_window: db.get<{ n: number }>('SELECT count(*) AS n FROM programs WHERE window_end IS NOT NULL')?.n ?? 0,
  };
}
