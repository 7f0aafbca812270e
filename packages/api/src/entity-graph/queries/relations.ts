// Reads of am_relations.
import type { CatalogDatabase } from '../../catalog/db.ts';

export interface RelationRow {
  src_id: string;
  dst_id: string;
  relation: string;
  source: string;
  confidence: number;
}

/** Relations touching an entity, in either direction. */
export function relationsOf(db: CatalogDatabase, id: string): RelationRow[] {
  return db.all<RelationRow>(
    `SELECT src_id, dst_id, relation, source, confidence FROM am_relations WHERE src_id = ?1
     UNION ALL SELECT src_id, dst_id, relation, source, confidence FROM am_relations WHERE dst_id = ?1 AND src_id <> ?1
     ORDER BY relation, src_id, dst_id`,
    id,
  );
}

/** Entities on the other end of `relation` edges pointing at `dstIds`. */
export function sourcesPointingAt(db: CatalogDatabase, dstIds: string[], relations: string[]): RelationRow[] {
  if (dstIds.length === 0) return [];
  return db.all<RelationRow>(
    `SELECT src_id, dst_id, relation, source, confidence FROM am_relations
     WHERE dst_id IN (${dstIds.map(() => '?').join(', ')}) AND relation IN (${relations.map(() => '?').join(', ')})
     ORDER BY confidence DESC, src_id`,
    ...dstIds,
    ...relations,
  );
}
