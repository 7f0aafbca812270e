// The quality report's section on tiers and importance (quality.ts runs it):
// tiers derived for untiered programmes (derived-tier.ts) by step and tier,
// and the importance points of served programmes (importance.ts).
import type { QualityExample, QualitySection } from './quality-types.ts';

interface Row {
  unified_id: string;
  primary_name: string;
  tier: string;
  excluded: number;
  canonical_id: string | null;
  importance: number;
  tier_how: string | null;
  importance_how: string | null;
}

export const tierSection: QualitySection = {
  id: 'tiers',
  title: 'Tiers derived and importance',
  measure(db) {
    const rows = db.all<Row>(
      `SELECT unified_id, primary_name, tier, excluded, canonical_id, importance,
              json_extract(provenance, '$.tier') AS tier_how, json_extract(provenance, '$.importance') AS importance_how
         FROM programs ORDER BY unified_id`,
    );
    const counts: Record<string, number> = { 'tier derived': 0 };
    const changes: Record<string, QualityExample[]> = {};
    const bump = (key: string): void => {
      counts[key] = (counts[key] ?? 0) + 1;
    };
    for (const r of rows) {
      if (r.tier_how?.startsWith('derived:')) {
        bump('tier derived');
        bump(`tier ${r.tier_how}`);
        bump(`derived tier:${r.tier}`);
        (changes[r.tier_how] ??= []).push({ unified_id: r.unified_id, before: r.primary_name, after: `tier ${r.tier}` });
      }
      if (r.excluded === 0 && r.canonical_id === null) {
        bump(`served importance:${r.importance}`);
        if (r.importance_how) (changes[r.importance_how] ??= []).push({ unified_id: r.unified_id, before: r.primary_name, after: r.importance_how });
      }
    }
    return { counts, changes };
  },
};
