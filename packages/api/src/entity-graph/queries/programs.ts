// Facts about a program kept in the catalogue's program tables (for the
// annotations of an entity).
import type { CatalogDatabase } from '../../catalog/db.ts';

export interface DuplicateGroup {
  group_name: string;
  verdict: string | null;
  winner_uid: string | null;
  unified_ids: string;
}

export function duplicateGroupsOf(db: CatalogDatabase, id: string): DuplicateGroup[] {
  return db.all<DuplicateGroup>(
    `SELECT group_name, verdict, winner_uid, unified_ids FROM program_duplicates
     WHERE EXISTS (SELECT 1 FROM json_each(program_duplicates.unified_ids) WHERE value = ?) ORDER BY group_id`,
    id,
  );
}

export function programCoverage(db: CatalogDatabase, id: string): { gap_to_tier_s: string; coverage_score: number; trust_level: string } | null {
  return (
    db.get<{ gap_to_tier_s: string; coverage_score: number; trust_level: string }>(
      'SELECT gap_to_tier_s, coverage_score, trust_level FROM programs WHERE unified_id = ?',
      id,
    ) ?? null
  );
}
