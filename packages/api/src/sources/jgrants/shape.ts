// What the jGrants public API answers (developer site of the Digital Agency,
// API v1): the list `GET /subsidies?keyword=…` →
// `{metadata: {type, resultset: {count}}, result: [{id, name, title, …}]}`,
// the detail `GET /subsidies/id/{id}` → `{metadata, result: [{…}]}`.
//
// Three kinds of trouble, told apart on purpose:
// - envelope drift: the list or detail answer is not the documented
//   envelope. The sync stops at once (exit 3) and writes no data.
// - a record of another shape (a required field missing, a field of another
//   JSON type), or
// - a malformed record: the shape is right but a value is unusable (a date
//   that is no date, a negative amount, an empty title).
// Such a record is set aside with its raw fragment and the rest is published,
// unless the source drifted as a whole (../quarantine.ts): mapping a changed
// API by guesswork is how bad data gets in.
import { ShapeDrift, truncate } from '../drift.ts';
import type { RecordProblem } from '../quarantine.ts';

export interface JgrantsDetail {
  id: string;
  name: string;
  title: string;
  subsidy_max_limit: number | null;
  acceptance_start_datetime: string | null;
  acceptance_end_datetime: string | null;
  target_area_search: string | null;
  target_number_of_employees?: string | null;
  industry?: string | null;
  use_purpose?: string | null;
  front_subsidy_detail_page_url?: string | null;
  institution_name?: string | null;
  subsidy_catch_phrase?: string | null;
  detail?: string | null;
}

type Kind = 'string' | 'number';

/** Fields every detail carries (null allowed where the programme has no value), and their type. */
const REQUIRED: Readonly<Record<string, { type: Kind; nullable: boolean }>> = {
  id: { type: 'string', nullable: false },
  name: { type: 'string', nullable: false },
  title: { type: 'string', nullable: false },
  subsidy_max_limit: { type: 'number', nullable: true },
  acceptance_start_datetime: { type: 'string', nullable: true },
  acceptance_end_datetime: { type: 'string', nullable: true },
  target_area_search: { type: 'string', nullable: true },
};

/** Fields read when present; their type is still checked. */
const OPTIONAL: Readonly<Record<string, Kind>> = {
  target_number_of_employees: 'string',
  industry: 'string',
  use_purpose: 'string',
  front_subsidy_detail_page_url: 'string',
  institution_name: 'string',
  subsidy_catch_phrase: 'string',
  detail: 'string',
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The problems of one detail record's shape, by field (empty: the documented shape). */
export function detailProblems(record: unknown): RecordProblem[] {
  if (!isObject(record)) return [{ field: null, message: 'record is not a JSON object' }];
  const out: RecordProblem[] = [];
  for (const [field, rule] of Object.entries(REQUIRED)) {
    if (!(field in record)) out.push({ field, message: `required field ${field} missing` });
    else if (record[field] === null ? !rule.nullable : typeof record[field] !== rule.type)
      out.push({ field, message: `field ${field}: expected ${rule.type}${rule.nullable ? ' or null' : ''}, got ${jsonType(record[field])}` });
  }
  for (const [field, type] of Object.entries(OPTIONAL)) {
    const v = record[field];
    if (v !== undefined && v !== null && typeof v !== type) out.push({ field, message: `field ${field}: expected ${type} or null, got ${jsonType(v)}` });
  }
  return out;
}

/** The messages of detailProblems. */
export function detailDrift(record: unknown): string[] {
  return detailProblems(record).map((p) => p.message);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** The list answer's rows (ids and titles); throws ShapeDrift when the envelope is not the documented one. */
export function listRows(body: unknown): { count: number; rows: { id: string; title: string }[] } {
  const count = isObject(body) && isObject(body.metadata) && isObject(body.metadata.resultset) ? body.metadata.resultset.count : undefined;
  if (!isObject(body) || typeof count !== 'number' || !Array.isArray(body.result)) {
    throw new ShapeDrift('list answer is not {metadata: {resultset: {count}}, result: [...]}', truncate(body));
  }
  const rows = body.result.map((r) => {
    if (!isObject(r) || typeof r.id !== 'string' || r.id === '') throw new ShapeDrift('list row without a string id', truncate(r));
    return { id: r.id, title: typeof r.title === 'string' ? r.title : '' };
  });
  return { count, rows };
}

/** The one record of a detail answer; throws ShapeDrift when the envelope is not the documented one. */
export function detailRecord(body: unknown): unknown {
  if (!isObject(body) || !Array.isArray(body.result) || body.result.length !== 1) {
    throw new ShapeDrift('detail answer is not {result: [record]}', truncate(body));
  }
  return body.result[0];
}
