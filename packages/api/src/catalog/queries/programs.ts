// Program detail and batch reads, rows of search hits, and the three response shapes
// (the search itself is search/engine.ts).
import type { CatalogDatabase } from '../db.ts';

export type FieldsShape = 'minimal' | 'default' | 'full';

export interface ProgramRow {
  pid: number;
  unified_id: string;
  primary_name: string;
  aliases: string;
  authority_level: string | null;
  authority_name: string | null;
  prefecture: string | null;
  municipality: string | null;
  program_kind: string | null;
  official_url: string | null;
  amount_max_man_yen: number | null;
  amount_min_man_yen: number | null;
  subsidy_rate: number | null;
  trust_level: string;
  tier: string;
  coverage_score: number;
  gap_to_tier_s: string;
  a_to_j_coverage: string;
  excluded: number;
  exclusion_reason: string | null;
  crop_categories: string;
  equipment_category: string | null;
  target_types: string;
  funding_purpose: string;
  amount_band: string;
  application_window: string;
  enriched: string | null;
  source_mentions: string | null;
  source_url: string | null;
  source_fetched_at: string | null;
  source_checksum: string | null;
  published_name: string;
  description: string | null;
  provenance: string;
  jsic_majors: string;
}

/** Japanese (and a few English) spellings accepted for authority_level. */
export const AUTHORITY_LEVEL_ALIASES: Record<string, string> = {
  national: 'national',
  prefecture: 'prefecture',
  municipality: 'municipality',
  financial: 'financial',
  国: 'national',
  都道府県: 'prefecture',
  市区町村: 'municipality',
  市町村: 'municipality',
  公庫: 'financial',
};

/** The canonical authority level for a value or alias, or null when unknown. */
export function normalizeAuthorityLevel(value: string): string | null {
  return AUTHORITY_LEVEL_ALIASES[value.trim().toLowerCase()] ?? AUTHORITY_LEVEL_ALIASES[value.trim()] ?? null;
}

/** Rows by catalogue pid (the search's hits), keyed by pid. */
export function getProgramRowsByPid(db: CatalogDatabase, pids: number[]): Map<number, ProgramRow> {
  if (pids.length === 0) return new Map();
  const rows = db.all<ProgramRow>('SELECT p.* FROM programs p WHERE p.pid IN (SELECT value FROM json_each(?))', JSON.stringify(pids));
  return new Map(rows.map((r) => [r.pid, r]));
}

/** Only the provenance of rows by pid, in getProgramRowsByPid's order (the attribution of a cached page). */
export function getProvenancesByPid(db: CatalogDatabase, pids: number[]): Map<number, { provenance: string }> {
  if (pids.length === 0) return new Map();
  const rows = db.all<{ pid: number; provenance: string }>(
    'SELECT p.pid, p.provenance FROM programs p WHERE p.pid IN (SELECT value FROM json_each(?))',
    JSON.stringify(pids),
  );
  return new Map(rows.map((r) => [r.pid, r]));
}

/** Only the provenance of rows by unified_id, in getProgramRows' order. */
export function getProvenancesById(db: CatalogDatabase, unifiedIds: string[]): Map<string, { provenance: string }> {
  if (unifiedIds.length === 0) return new Map();
  const rows = db.all<{ unified_id: string; provenance: string }>(
    'SELECT p.unified_id, p.provenance FROM programs p WHERE p.unified_id IN (SELECT value FROM json_each(?))',
    JSON.stringify(unifiedIds),
  );
  return new Map(rows.map((r) => [r.unified_id, r]));
}

export function getProgramRow(db: CatalogDatabase, unifiedId: string): ProgramRow | undefined {
  return db.get<ProgramRow>('SELECT * FROM programs WHERE unified_id = ?', unifiedId);
}

/** Rows for many ids in one query, keyed by unified_id. */
export function getProgramRows(db: CatalogDatabase, unifiedIds: string[]): Map<string, ProgramRow> {
  if (unifiedIds.length === 0) return new Map();
  const rows = db.all<ProgramRow>('SELECT p.* FROM programs p WHERE p.unified_id IN (SELECT value FROM json_each(?))', JSON.stringify(unifiedIds));
  return new Map(rows.map((r) => [r.unified_id, r]));
}

const parse = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

export function minimalShape(r: ProgramRow) {
  return {
    unified_id: r.unified_id,
    primary_name: r.primary_name,
    tier: r.tier,
    prefecture: r.prefecture,
    authority_name: r.authority_name,
    amount_max_man_yen: r.amount_max_man_yen,
    official_url: r.official_url ?? r.source_url,
  };
}

export function defaultShape(r: ProgramRow) {
  const window = parse<Record<string, unknown>>(r.application_window, { start: null, end: null });
  return {
    unified_id: r.unified_id,
    primary_name: r.primary_name,
    aliases: parse<string[]>(r.aliases, []),
    authority_level: r.authority_level,
    authority_name: r.authority_name,
    prefecture: r.prefecture,
    municipality: r.municipality,
    program_kind: r.program_kind,
    official_url: r.official_url ?? r.source_url,
    amount_max_man_yen: r.amount_max_man_yen,
    amount_min_man_yen: r.amount_min_man_yen,
    subsidy_rate: r.subsidy_rate,
    trust_level: r.trust_level,
    tier: r.tier,
    coverage_score: r.coverage_score,
    gap_to_tier_s: parse<string[]>(r.gap_to_tier_s, []),
    a_to_j_coverage: parse<Record<string, boolean>>(r.a_to_j_coverage, {}),
    excluded: r.excluded === 1,
    exclusion_reason: r.exclusion_reason,
    crop_categories: parse<string[]>(r.crop_categories, []),
    equipment_category: r.equipment_category,
    target_types: parse<string[]>(r.target_types, []),
    funding_purpose: parse<string[]>(r.funding_purpose, []),
    amount_band: r.amount_band,
    application_window: { start: (window.start as string) ?? null, end: (window.end as string) ?? null },
  };
}

/**
 * The full shape: every default field plus enrichment and lineage, the keys
 * always present. `withConfidence` keeps `confidence` on source mentions (the
 * detail endpoints); search rows carry only url and fetched_at.
 */
export function fullShape(r: ProgramRow, withConfidence: boolean) {
  type Mention = { url: string; fetched_at: string | null; confidence: number };
  const mentions = parse<Mention[] | null>(r.source_mentions, null);
  return {
    ...defaultShape(r),
    published_name: r.published_name,
    description: r.description,
    provenance: parse<Record<string, unknown>>(r.provenance, {}),
    enriched: parse<Record<string, Record<string, unknown> | null> | null>(r.enriched, null),
    source_mentions: mentions === null ? null : mentions.map((m) => (withConfidence ? m : { url: m.url, fetched_at: m.fetched_at })),
    source_url: r.source_url,
    source_fetched_at: r.source_fetched_at,
    source_checksum: r.source_checksum,
  };
}

export function shapeRow(r: ProgramRow, fields: FieldsShape, detail: boolean) {
  if (fields === 'minimal') return minimalShape(r);
  if (fields === 'full' || detail) return fullShape(r, detail);
  return defaultShape(r);
}
