// /v1/am/related/{program_id}: a breadth-first walk of the graph, 1 or 2 hops
// from a seed entity, optionally along some relation types only.
import type { CatalogDatabase } from '../catalog/db.ts';
import { amError, entitySummary, type AmError } from './envelope.ts';
import { listParam } from './params.ts';
import { findEntity, getEntity } from './queries/entities.ts';
import { relationsOf } from './queries/relations.ts';
import { seedNotFound } from './seed.ts';

export const RELATION_TYPES = [
  'prerequisite',
  'compatible',
  'incompatible',
  'successor',
  'predecessor',
  'similar',
  'based_on_law',
  'administered_by',
  'targets',
  'features',
  'cites_law',
  'concerns_program',
  'used_program',
  'issued_by',
] as const;

export function related(db: CatalogDatabase, seedId: string, p: { depth: number; relation_types?: string | string[]; max_edges: number }) {
  const base = {
    seed_id: seedId,
    seed_kind: null as string | null,
    depth: p.depth,
    total_edges: 0,
    nodes: [] as Record<string, unknown>[],
    relations: [] as Record<string, unknown>[],
    hint: null as string | null,
    retry_with: null as Record<string, unknown> | null,
    error: null as AmError | null,
  };
  const types = listParam(p.relation_types);
  const bad = types.filter((t) => !(RELATION_TYPES as readonly string[]).includes(t));
  if (bad.length > 0) {
    return {
      ...base,
      error: amError('invalid_enum', `unknown relation type(s): ${bad.join(', ').slice(0, 200)}`, `relation_types among: ${RELATION_TYPES.join(', ')}`),
    };
  }
  const seed = findEntity(db, seedId);
  if (!seed) {
    const error = seedNotFound(db, seedId, 'program_id');
    return { ...base, error, retry_with: (error.retry_with as Record<string, unknown> | undefined) ?? null, hint: error.hint ?? null };
  }
  const nodes = new Map<string, number>([[seed.entity_id, 0]]);
  const edges = new Map<string, Record<string, unknown>>();
  let frontier = [seed.entity_id];
  let truncated = false;
  for (let level = 1; level <= p.depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const r of relationsOf(db, id)) {
        if (types.length > 0 && !types.includes(r.relation)) continue;
        const key = `${r.src_id}|${r.dst_id}|${r.relation}`;
        if (edges.has(key)) continue;
        if (edges.size >= p.max_edges) {
          truncated = true;
          break;
        }
        edges.set(key, { src_id: r.src_id, dst_id: r.dst_id, relation: r.relation, source: r.source, confidence: r.confidence, hop: level });
        const other = r.src_id === id ? r.dst_id : r.src_id;
        if (!nodes.has(other)) {
          nodes.set(other, level);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  const entities = [...nodes].map(([id, depth]) => {
    const e = getEntity(db, id);
    return e ? { ...entitySummary(e), depth } : { entity_id: id, depth };
  });
  let hint: string | null = null;
  if (edges.size === 0) {
    hint =
      types.length > 0
        ? 'no relations of the requested types; try without relation_types'
        : 'no relations are recorded for this entity (links exist only where the dataset states them)';
  } else if (truncated) {
    hint = `stopped at max_edges=${p.max_edges}`;
  }
  return {
    ...base,
    seed_kind: seed.record_kind,
    total_edges: edges.size,
    nodes: entities,
    relations: [...edges.values()],
    hint,
    retry_with: edges.size === 0 && types.length > 0 ? { relation_types: null } : truncated ? { max_edges: Math.min(500, p.max_edges * 2) } : null,
  };
}
