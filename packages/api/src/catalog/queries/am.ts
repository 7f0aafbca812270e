// Read queries over the entity graph (am_* tables, loaders/entity-graph.ts).
// SQL text is built from constants only; every user value is a bound
// parameter; free text goes through normalizeText + likeContains.
import type { CatalogDatabase } from '../db.ts';
import { likeContains, normalizeText } from '../text-query.ts';

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

export function parseEntity(row: EntityRow): Entity {
  return { ...row, facts: JSON.parse(row.facts) as Record<string, unknown>, provenance: JSON.parse(row.provenance) as Record<string, unknown> };
}

export function getEntity(db: CatalogDatabase, id: string): Entity | null {
  const row = db.get<EntityRow>(`SELECT ${COLUMNS} FROM am_entities WHERE entity_id = ?`, id);
  return row ? parseEntity(row) : null;
}

export function getEntities(db: CatalogDatabase, ids: string[]): Map<string, Entity> {
  const out = new Map<string, Entity>();
  for (const id of ids) {
    const e = getEntity(db, id);
    if (e) out.set(id, e);
  }
  return out;
}

/** Entities whose name, slug, title, egov id or corporate number equals the key (normalised). */
export function entitiesByKey(db: CatalogDatabase, key: string, kind: string | null = null): Entity[] {
  const k = normalizeText(key);
  if (!k) return [];
  const rows = db.all<EntityRow>(
    `SELECT ${COLUMNS} FROM am_entities WHERE entity_id IN (
       SELECT entity_id FROM am_entity_keys WHERE key = ?1
       UNION SELECT entity_id FROM am_entities WHERE name_norm = ?1)
     AND (?2 IS NULL OR record_kind = ?2) ORDER BY entity_id LIMIT 50`,
    k, kind,
  );
  return rows.map(parseEntity);
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
  /** valid_from <= date <= valid_until (nulls per `openEnded`). */
  activeOn?: string | null;
  /** For active_on: rows with no start count as started; rows with no end as open-ended. */
  requireEnd?: boolean;
  excludeTierX?: boolean;
  tiers?: string[];
  order?: 'name' | 'valid_until' | 'tier';
  limit: number;
  offset: number;
}

export function searchEntities(db: CatalogDatabase, f: EntityFilter): { total: number; rows: Entity[] } {
  const where: string[] = [];
  const params: (string | number | null)[] = [];
  where.push(`record_kind IN (${f.kinds.map(() => '?').join(', ')})`);
  params.push(...f.kinds);
  for (const group of f.termGroups ?? []) {
    const any = [...new Set(group.map(normalizeText).filter(Boolean))];
    if (any.length === 0) continue;
    where.push(`(${any.map(() => "search_text LIKE ? ESCAPE '\\'").join(' OR ')})`);
    params.push(...any.map(likeContains));
  }
  if (f.requireValidity) where.push('(valid_from IS NOT NULL OR valid_until IS NOT NULL)');
  if (f.excludeStatuses && f.excludeStatuses.length > 0) {
    where.push(`coalesce(status, '') NOT IN (${f.excludeStatuses.map(() => '?').join(', ')})`);
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
    where.push(`tier IN (${f.tiers.map(() => '?').join(', ')})`);
    params.push(...f.tiers);
  }
  const clause = where.join(' AND ');
  const order = f.order === 'valid_until'
    ? 'valid_until IS NULL, valid_until, name, entity_id'
    : f.order === 'tier'
      ? "CASE tier WHEN 'S' THEN 0 WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 3 ELSE 4 END, name, entity_id"
      : 'name, entity_id';
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM am_entities WHERE ${clause}`, ...params)?.n ?? 0;
  const rows = db.all<EntityRow>(
    `SELECT ${COLUMNS} FROM am_entities WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ...params, f.limit, f.offset,
  );
  return { total, rows: rows.map(parseEntity) };
}

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
    ...dstIds, ...relations,
  );
}

export interface LawArticleRow {
  law_key: string;
  law_slug: string;
  article_key: string;
  article_label: string | null;
  article_number_sort: number | null;
  is_supplementary: number;
  seq: number;
  caption: string | null;
  text: string;
}

export function lawArticle(db: CatalogDatabase, lawKey: string, sort: number, supplementary: boolean): LawArticleRow | null {
  return db.get<LawArticleRow>(
    `SELECT law_key, law_slug, article_key, article_label, article_number_sort, is_supplementary, seq, caption, text
     FROM am_law_articles WHERE law_key = ? AND article_number_sort = ? AND is_supplementary = ? ORDER BY seq LIMIT 1`,
    lawKey, sort, supplementary ? 1 : 0,
  ) ?? null;
}

export function lawArticleCount(db: CatalogDatabase, lawKey: string): number {
  return db.get<{ n: number }>('SELECT count(*) AS n FROM am_law_articles WHERE law_key = ?', lawKey)?.n ?? 0;
}

export interface LoanRow {
  loan_key: string;
  plan_type: string;
  name: string;
  provider: string | null;
  program_kind: string | null;
  loan_type: string | null;
  prefecture: string | null;
  tier: string | null;
  amount_max_yen: number | null;
  collateral_required: string;
  personal_guarantor_required: string;
  third_party_guarantor_required: string;
  plan_kind: string | null;
  tax_deduction_type: string | null;
  source_url: string | null;
  data: string;
}

export interface LoanFilter {
  planType: 'loan' | 'mutual_aid';
  nameTerms: string[];
  provider?: string;
  loanKind?: string;
  planKind?: string;
  taxDeductionType?: string;
  prefecture?: string;
  noCollateral?: boolean;
  noPersonalGuarantor?: boolean;
  noThirdPartyGuarantor?: boolean;
  minAmountYen?: number;
  maxAmountYen?: number;
  limit: number;
  offset: number;
}

export function searchLoans(db: CatalogDatabase, f: LoanFilter): { total: number; rows: LoanRow[] } {
  const where = ['plan_type = ?'];
  const params: (string | number | null)[] = [f.planType];
  for (const term of f.nameTerms) {
    const t = normalizeText(term);
    if (!t) continue;
    where.push("name_norm LIKE ? ESCAPE '\\'");
    params.push(likeContains(t));
  }
  if (f.provider) {
    where.push("lower(coalesce(provider, '')) LIKE ? ESCAPE '\\'");
    params.push(likeContains(normalizeText(f.provider)));
  }
  if (f.loanKind) {
    where.push('(loan_type = ? OR program_kind = ?)');
    params.push(f.loanKind, f.loanKind);
  }
  if (f.planKind) {
    where.push('plan_kind = ?');
    params.push(f.planKind);
  }
  if (f.taxDeductionType) {
    where.push('tax_deduction_type = ?');
    params.push(f.taxDeductionType);
  }
  if (f.prefecture) {
    where.push('prefecture = ?');
    params.push(f.prefecture);
  }
  if (f.noCollateral) where.push("collateral_required = 'not_required'");
  if (f.noPersonalGuarantor) where.push("personal_guarantor_required = 'not_required'");
  if (f.noThirdPartyGuarantor) where.push("third_party_guarantor_required = 'not_required'");
  if (f.minAmountYen !== undefined) {
    where.push('amount_max_yen >= ?');
    params.push(f.minAmountYen);
  }
  if (f.maxAmountYen !== undefined) {
    where.push('amount_max_yen <= ?');
    params.push(f.maxAmountYen);
  }
  const clause = where.join(' AND ');
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM am_loans WHERE ${clause}`, ...params)?.n ?? 0;
  const rows = db.all<LoanRow>(
    `SELECT loan_key, plan_type, name, provider, program_kind, loan_type, prefecture, tier, amount_max_yen,
       collateral_required, personal_guarantor_required, third_party_guarantor_required, plan_kind, tax_deduction_type,
       source_url, data
     FROM am_loans WHERE ${clause}
     ORDER BY CASE tier WHEN 'S' THEN 0 WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 3 ELSE 4 END, name, loan_key
     LIMIT ? OFFSET ?`,
    ...params, f.limit, f.offset,
  );
  return { total, rows };
}

export interface EnumRow { value: string; label_ja: string | null; count: number | null; source: string | null }

export function enumValues(db: CatalogDatabase, name: string): EnumRow[] {
  return db.all<EnumRow>(
    'SELECT value, label_ja, count, source FROM am_enums WHERE enum = ? ORDER BY count DESC, value', name,
  );
}

export function enumNames(db: CatalogDatabase): string[] {
  return db.all<{ enum: string }>('SELECT DISTINCT enum FROM am_enums ORDER BY enum').map((r) => r.enum);
}

export function municipalityExists(db: CatalogDatabase, prefecture: string, name: string): boolean {
  return db.get<{ ok: number }>('SELECT 1 AS ok FROM am_municipalities WHERE prefecture = ? AND name = ?', prefecture, name) !== undefined;
}

export function duplicateGroupsOf(db: CatalogDatabase, id: string): { group_name: string; verdict: string | null; winner_uid: string | null; unified_ids: string }[] {
  return db.all(
    `SELECT group_name, verdict, winner_uid, unified_ids FROM program_duplicates
     WHERE EXISTS (SELECT 1 FROM json_each(program_duplicates.unified_ids) WHERE value = ?) ORDER BY group_id`,
    id,
  );
}

export function programCoverage(db: CatalogDatabase, id: string): { gap_to_tier_s: string; coverage_score: number; trust_level: string } | null {
  return db.get('SELECT gap_to_tier_s, coverage_score, trust_level FROM programs WHERE unified_id = ?', id) ?? null;
}

export function sharedSourceUrlCount(db: CatalogDatabase, url: string): number {
  return db.get<{ n: number }>("SELECT count(*) AS n FROM am_entities WHERE source_url = ? AND record_kind IN ('program', 'certification')", url)?.n ?? 0;
}

export function catalogMeta(db: CatalogDatabase, key: string): string | null {
  return db.metaValue(key);
}
