// Compact rows (decision 0395). An agent pays for every character of an
// answer, and most of a record is what it never cites (coverage flags, slugs,
// fetch times, the eligibility predicate, provenance paths). By default a tool
// that lists records keeps, of each record, the keys an agent cites: the id to
// fetch it by, its name, kind, place, authority, amount, window, purposes and
// source URL, plus what the tool itself adds (why it is there, a verdict, a
// deadline). `fields: "full"` returns the records as the API returns them.
// One rule for every record kind: the keys below are the API's own names, so
// a compact row is a record with keys left out, never renamed.
import { z } from 'zod';

export const ROW_SHAPES = ['compact', 'full'] as const;
export type RowShape = (typeof ROW_SHAPES)[number];

/**
 * The words REST and the reference tool surface use for a row's detail, read
 * as one of the two shapes: a short row is compact, REST's `default` (all
 * fields) is full.
 */
const SHAPE_WORDS: Readonly<Record<string, RowShape>> = { minimal: 'compact', standard: 'compact', default: 'full' };

/** The tool input every record-listing tool takes (explained once in the server's instructions). */
export const fieldsInput = () =>
  z
    .preprocess((v) => (typeof v === 'string' ? (SHAPE_WORDS[v] ?? v) : v), z.enum(ROW_SHAPES))
    .default('compact')
    .describe('Row shape: compact (default: what an agent cites) or full (every field)');

/** The one id a compact row keeps: the first of these the record has (a loan's `id` repeats its `unified_id`). */
const ID_KEYS = ['unified_id', 'entity_id', 'law_id', 'case_id', 'enforcement_id', 'rule_id', 'id'] as const;

/** Keys that name a record: an object with one is a record; one without is a container (a quarter, a combination). */
const NAME_KEYS = ['primary_name', 'name', 'title', 'ruleset_name', 'bid_title'] as const;

/** What a compact row keeps besides its id, by what it says. */
const KEPT: Record<string, readonly string[]> = {
  name: [...NAME_KEYS, 'target_name', 'company_name', 'winner_name'],
  kind: ['program_kind', 'record_kind', 'ruleset_kind', 'tax_category', 'action_type', 'law_number', 'kind', 'severity', 'bid_kind'],
  place: ['prefecture', 'municipality', 'authority_level'],
  authority: ['authority_name', 'authority', 'provider', 'procuring_entity', 'tier'],
  amount: [
    'amount_max_man_yen',
    'amount_min_man_yen',
    'amount_max_yen',
    'subsidy_rate',
    'rate_or_amount',
    'interest_rate_base_annual',
    'interest_rate_special_annual',
    'loan_period_years_max',
    'collateral_required',
    'personal_guarantor_required',
    'amount_yen',
    'awarded_amount_yen',
    'budget_ceiling_yen',
  ],
  window: [
    'application_window',
    'status',
    'valid_from',
    'valid_until',
    'effective_from',
    'effective_until',
    'deadline',
    'days_remaining',
    'action_date',
    'exclusion_start',
    'exclusion_end',
    'published_date',
    'ends_on',
    'days_left',
    'announcement_date',
    'bid_deadline',
  ],
  purposes: ['funding_purpose', 'target_types', 'industry_name', 'pattern_tags', 'legal_basis', 'requirements_status', 'requirements', 'requirements_note'],
  source: ['official_url', 'source_url', 'source_urls'],
  // What the tools add to a record: why it is listed and what it means for the caller.
  tool: [
    'section',
    'why',
    'reasons',
    'unknowns',
    'verdict',
    'conditions_met',
    'missing_fields',
    'fiscal_quarter',
    'bucket',
    'match',
    'relation',
    'needs_verification',
  ],
};
const KEPT_KEYS: ReadonlySet<string> = new Set(Object.values(KEPT).flat());

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRecord = (v: Json): boolean => NAME_KEYS.some((k) => typeof v[k] === 'string');
/** Nothing to cite: null, an empty string or list, an object of nothing (a window with neither date). */
const saysNothing = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.values(v).every(saysNothing));

/** A null that says something: a programme with no prefecture is nationwide. */
const MEANINGFUL_NULL: ReadonlySet<string> = new Set(['prefecture']);

/** One record with the kept keys only (keys that say nothing dropped). */
export function compactRecord(record: Json): Json {
  const out: Json = {};
  const id = ID_KEYS.find((k) => typeof record[k] === 'string' || typeof record[k] === 'number');
  if (id) out[id] = record[id];
  // An entity's validity repeats its application window's dates: the window says it once.
  const window = !saysNothing(record.application_window);
  for (const [key, value] of Object.entries(record)) {
    if (key === id || !KEPT_KEYS.has(key) || (saysNothing(value) && !(value === null && MEANINGFUL_NULL.has(key)))) continue;
    if (window && (key === 'valid_from' || key === 'valid_until')) continue;
    out[key] = value;
  }
  // A record that names no source says so: a row without any source key would read as one the tool trimmed.
  const sourceKeys = KEPT.source.filter((k) => k in record);
  if (sourceKeys.length > 0 && !sourceKeys.some((k) => k in out)) out[sourceKeys[0]] = null;
  return out;
}

/** Records compacted wherever they sit: in a list, in a container (a quarter's programmes, a combination's parts). */
export function compactRecords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactRecords);
  if (!isObject(value)) return value;
  if (isRecord(value)) return compactRecord(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactRecords(v)]));
}
