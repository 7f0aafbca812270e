// Reads of am_entities: one entity, entities by key, and the filtered list
// every listing tool runs. SQL text is built from constants only; every user
// value is a bound parameter; free text is folded by programme search's rule
// (search-text.ts#searchNormalize, as the graph's name_norm, search_text and
// keys were at ingest) and matched through likeContains.
import type { CatalogDatabase } from '../../catalog/db.ts';
import { searchNormalize } from '../../catalog/search-text.ts';
import { likeContains } from '../../catalog/text-query.ts';

export interface EntityRow {
  entity_id: string;
  record_kind: string;
  name: string;
  source_url: string | null;
  fetched_at: string | null;
  valid_from: string | null;
  valid_until: string | null;
  status: string | null;
  prefecture: string | null;
  authority_name: string | null;
  tier: string | null;
  facts: string;
  provenance: string;
  record_source: string | null;
}

export interface Entity extends Omit<EntityRow, 'facts' | 'provenance'> {
  facts: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

const COLUMNS = `entity_id, record_kind, name, source_url, fetched_at, valid_from, valid_until, status, prefecture,
  authority_name, tier, facts, provenance, record_source`;

function parseEntity(row: EntityRow): Entity {
  return { ...row, facts: JSON.parse(row.facts) as Record<string, unknown>, provenance: JSON.parse(row.provenance) as Record<string, unknown> };
}

export function getEntity(db: CatalogDatabase, id: string): Entity | null {
  const row = db.get<EntityRow>(`SELECT ${COLUMNS} FROM am_entities WHERE entity_id = ?`, id);
  return row ? parseEntity(row) : null;
}

/**
 * The entity an id names: its entity id, or a law's page slug, the form
 * GET /v1/laws/{id} took before a law's one id (law_id, else LAWSLUG-<slug>)
 * was published on both sides (docs/record-sets.md, "Ids").
 */
export function findEntity(db: CatalogDatabase, id: string): Entity | null {
  const entity = getEntity(db, id);
  if (entity) return entity;
  const law = db.get<{ entity_id: string }>(
    `SELECT k.entity_id FROM am_entity_keys k JOIN am_entities e ON e.entity_id = k.entity_id
     WHERE k.key = ? AND k.key_kind = 'slug' AND e.record_kind = 'law' ORDER BY k.entity_id LIMIT 1`,
    searchNormalize(id),
  );
  return law ? getEntity(db, law.entity_id) : null;
}

/** Entities whose name, slug, title, egov id or corporate number equals the key (folded). */
export function entitiesByKey(db: CatalogDatabase, key: string, kind: string | null = null): Entity[] {
  const k = searchNormalize(key);
  if (!k) return [];
  const rows = db.all<EntityRow>(
    `SELECT ${COLUMNS} FROM am_entities WHERE entity_id IN (
       SELECT entity_id FROM am_entity_keys WHERE key = ?1
       UNION SELECT entity_id FROM am_entities WHERE name_norm = ?1)
     AND (?2 IS NULL OR record_kind = ?2) ORDER BY entity_id LIMIT 50`,
    k,
    kind,
  );
  return rows.map(parseEntity);
}

/** Values of a JSON-array fact, any of which must be present (e.g. jsic_majors among [E, G]). */
export interface FactAnyOf {
  fact: 'jsic_majors' | 'target_types';
  values: string[];
}

export interface EntityFilter {
  kinds: string[];
  /** Groups AND-ed; within a group, any term (a substring of the search text) matches. */
  termGroups?: string[][];
  /** Only rows with a validity date (valid_from or valid_until). */
  requireValidity?: boolean;
  /** Rows whose status is one of these are left out (e.g. repealed laws). */
  excludeStatuses?: string[];
  prefecture?: string | null;
  /** Include rows with a null prefecture (nationwide) when filtering by prefecture. */
  includeNationwide?: boolean;
  /** valid_from <= date <= valid_until (nulls per `requireEnd`). */
  activeOn?: string | null;
  /** For active_on: rows with no start count as started; rows with no end as open-ended. */
  requireEnd?: boolean;
  excludeTierX?: boolean;
  tiers?: string[];
  /** Each: the row's fact array holds at least one of the values (rows without the fact never match). */
  factsAnyOf?: FactAnyOf[];
  order?: 'name' | 'valid_until' | 'tier';
  limit: number;
  offset: number;
}

const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');

export function searchEntities(db: CatalogDatabase, f: EntityFilter): { total: number; rows: Entity[] } {
  const where: string[] = [];
  const params: (string | number | null)[] = [];
  where.push(`record_kind IN (${placeholders(f.kinds)})`);
  params.push(...f.kinds);
  for (const group of f.termGroups ?? []) {
    const any = [...new Set(group.map(searchNormalize).filter(Boolean))];
    if (any.length === 0) continue;
    where.push(`(${any.map(() => "search_text LIKE ? ESCAPE '\\'").join(' OR ')})`);
    params.push(...any.map(likeContains));
  }
  if (f.requireValidity) where.push('(valid_from IS NOT NULL OR valid_until IS NOT NULL)');
  if (f.excludeStatuses && f.excludeStatuses.length > 0) {
    where.push(`coalesce(status, '') NOT IN (${placeholders(f.excludeStatuses)})`);
    params.push(...f.excludeStatuses);
  }
  if (f.prefecture) {
    where.push(f.includeNationwide ? '(prefecture = ? OR prefecture IS NULL)' : 'prefecture = ?');
    params.push(f.prefecture);
  }
  if (f.activeOn) {
    where.push('(valid_from IS NULL OR valid_from <= ?)');
    params.push(f.activeOn);
    where.push(f.requireEnd ? 'valid_until IS NOT NULL AND valid_until >= ?' : '(valid_until IS NULL OR valid_until >= ?)');
    params.push(f.activeOn);
  }
  if (f.excludeTierX) where.push("(tier IS NULL OR tier <> 'X')");
  if (f.tiers && f.tiers.length > 0) {
    where.push(`tier IN (${placeholders(f.tiers)})`);
    params.push(...f.tiers);
  }
  for (const { fact, values } of f.factsAnyOf ?? []) {
    // `fact` is one of two constants (the type says so); the values are bound.
    where.push(`EXISTS (SELECT 1 FROM json_each(facts, '$.${fact}') WHERE value IN (${placeholders(values)}))`);
    params.push(...values);
  }
  const clause = where.join(' AND ');
  const order =
    f.order === 'valid_until'
      ? 'valid_until IS NULL, valid_until, name, entity_id'
      : f.order === 'tier'
        ? "CASE tier WHEN 'S' THEN 0 WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 3 ELSE 4 END, name, entity_id"
        : 'name, entity_id';
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM am_entities WHERE ${clause}`, ...params)?.n ?? 0;
  const rows = db.all<EntityRow>(`SELECT ${COLUMNS} FROM am_entities WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`, ...params, f.limit, f.offset);
  return { total, rows: rows.map(parseEntity) };
}

/** Programs and certifications citing this source URL (list pages carry many). */
export function sharedSourceUrlCount(db: CatalogDatabase, url: string): number {
  return db.get<{ n: number }>("SELECT count(*) AS n FROM am_entities WHERE source_url = ? AND record_kind IN ('program', 'certification')", url)?.n ?? 0;
}
