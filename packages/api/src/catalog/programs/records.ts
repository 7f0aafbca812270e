// Programme records: the catalogue row, its three response shapes (the
// contract's minimal, default and full; the detail is full with source
// confidence), and each record's JSON in each shape, serialised once per
// catalogue and kept in a bounded cache (the largest share of a detail, batch
// or search answer's own work in the profiles, docs/performance.md).
//
// A search row is a record's JSON plus what the hit adds (`score` with
// explain), appended to the cached text, byte for byte what JSON.stringify of
// the object with that key added last gives (test/routes/program-bodies.test.ts).
import type { CatalogDatabase } from '../db.ts';
import type { SearchHit } from '../search/engine.ts';
import { explainParts } from '../search/rank.ts';
import { Lru } from '../../lib/lru.ts';
import { RECORD_JSON_BYTES, stringBytes } from '../../lib/cache-budget.ts';

export type FieldsShape = 'minimal' | 'default' | 'full';
/** The serialised forms of a record: the search's three shapes, and `detail` (full, with source confidence). */
export type RecordView = FieldsShape | 'detail';

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
  canonical_id: string | null;
  also_listed_as: string;
}

/** Rows by catalogue pid (the search's hits), keyed by pid. */
export function getProgramRowsByPid(db: CatalogDatabase, pids: number[]): Map<number, ProgramRow> {
  if (pids.length === 0) return new Map();
  const rows = db.all<ProgramRow>('SELECT p.* FROM programs p WHERE p.pid IN (SELECT value FROM json_each(?))', JSON.stringify(pids));
  return new Map(rows.map((r) => [r.pid, r]));
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
    canonical_id: r.canonical_id,
    also_listed_as: parse<{ unified_id: string; primary_name: string }[]>(r.also_listed_as, []),
    enriched: parse<Record<string, Record<string, unknown> | null> | null>(r.enriched, null),
    source_mentions: mentions === null ? null : mentions.map((m) => (withConfidence ? m : { url: m.url, fetched_at: m.fetched_at })),
    source_url: r.source_url,
    source_fetched_at: r.source_fetched_at,
    source_checksum: r.source_checksum,
  };
}

const SHAPERS: Record<RecordView, (r: ProgramRow) => unknown> = {
  minimal: minimalShape,
  default: defaultShape,
  full: (r) => fullShape(r, false),
  detail: (r) => fullShape(r, true),
};

/** A row in a view, as an object (exports and the change feed; answers use the cached JSON). */
export const shapeRow = (r: ProgramRow, view: RecordView): unknown => SHAPERS[view](r);

/** Each record's JSON per view, serialised once per catalogue (it lives and dies with its Catalog). */
export class ProgramRecords {
  private readonly cache = new Lru<string, string>(RECORD_JSON_BYTES);
  private readonly db: CatalogDatabase;
  /** Work done (tests and the profile notes): records serialised. */
  readonly stats = { recordsSerialised: 0 };

  constructor(db: CatalogDatabase) {
    this.db = db;
  }

  /** Bytes of record JSON held (estimate), for /metrics. */
  get bytes(): number {
    return this.cache.weight;
  }

  /** The JSON of each pid in `view` (pids the catalogue lacks are absent); the missing ones read in one query. */
  json(pids: readonly number[], view: RecordView): Map<number, string> {
    const out = new Map<number, string>();
    const missing: number[] = [];
    for (const pid of pids) {
      const hit = this.cache.get(`${view}:${pid}`);
      if (hit === undefined) missing.push(pid);
      else out.set(pid, hit);
    }
    for (const [pid, row] of getProgramRowsByPid(this.db, missing)) {
      const json = JSON.stringify(SHAPERS[view](row));
      this.stats.recordsSerialised++;
      this.cache.set(`${view}:${pid}`, json, stringBytes(json));
      out.set(pid, json);
    }
    return out;
  }
}

/**
 * A record's JSON with members appended (`{"a":1}` + `"b":2` -> `{"a":1,"b":2}`),
 * byte for byte what JSON.stringify of the object with those keys added last gives.
 */
export function withMembers(json: string, members: Record<string, unknown>): string {
  let tail = '';
  for (const [k, v] of Object.entries(members)) if (v !== undefined) tail += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  if (tail === '') return json;
  return json === '{}' ? `{${tail.slice(1)}}` : `${json.slice(0, -1)}${tail}}`;
}

/** The members a search hit adds after the record's own: with explain, its score parts and the need q was read as. */
export function hitMembers(hit: SearchHit, need?: unknown): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  if (hit.parts) members.score = explainParts(hit.parts);
  if (hit.parts && need !== undefined) members.need = need;
  return members;
}
