// /v1/am/enforcement: does a company (corporate number or name) have an
// exclusion period in force on a date, and its enforcement history. The
// records are read through the enforcement spec
// (catalog/record-sets/enforcement.ts), the reader of GET /v1/enforcement:
// a number is its `houjin_bangou` filter, a name its free-text search.
import type { CatalogDatabase } from '../catalog/db.ts';
import { isValidHoujinBangou } from '../catalog/houjin.ts';
import { searchRecords, type Row } from '../catalog/queries/record-sets.ts';
import enforcement from '../catalog/record-sets/enforcement.ts';
import { searchNormalize } from '../catalog/search-text.ts';
import { datePart, jstDate } from '../lib/time.ts';
import { amError, type AmError } from './envelope.ts';
import { resolveDate } from './params.ts';

/** What a check by number or name can see: how many findings there are, how many name a corporate number, the period they span. */
export interface EnforcementCoverage {
  findings: number;
  with_houjin_bangou: number;
  action_date_from: string | null;
  action_date_to: string | null;
}

const coverages = new WeakMap<CatalogDatabase, EnforcementCoverage>();

/** Computed once per catalogue (it is read-only). */
export function enforcementCoverage(db: CatalogDatabase): EnforcementCoverage {
  let c = coverages.get(db);
  if (!c) {
    const row = db.get<{ n: number; hb: number; lo: string | null; hi: string | null }>(
      `SELECT count(*) AS n, count(houjin_bangou) AS hb, min(substr(action_date, 1, 10)) AS lo, max(substr(action_date, 1, 10)) AS hi FROM ${enforcement.table}`,
    );
    c = { findings: row?.n ?? 0, with_houjin_bangou: row?.hb ?? 0, action_date_from: row?.lo ?? null, action_date_to: row?.hi ?? null };
    coverages.set(db, c);
  }
  return c;
}

export function enforcementCheck(db: CatalogDatabase, p: { houjin_bangou?: string; target_name?: string; as_of_date?: string }, today = jstDate()) {
  const queried = { houjin_bangou: p.houjin_bangou ?? null, target_name: p.target_name ?? null, as_of_date: p.as_of_date ?? 'today' };
  const base = {
    found: false,
    currently_excluded: false,
    active_exclusions: [] as Record<string, unknown>[],
    all_count: 0,
    queried,
    recent_history: [] as Record<string, unknown>[],
    // "Not found" covers only what is held: say how much that is (decision 0392).
    coverage: enforcementCoverage(db),
    error: null as AmError | null,
    warnings: [] as string[],
  };
  const asOf = resolveDate(p.as_of_date, today);
  if (!asOf) return { ...base, error: amError('invalid_date', 'as_of_date must be YYYY-MM-DD or "today"') };
  queried.as_of_date = asOf;
  const hb = p.houjin_bangou?.normalize('NFKC').replace(/[-\s]/g, '');
  const name = p.target_name?.trim();
  if (!hb && !name) return { ...base, error: amError('empty_input', 'give houjin_bangou or target_name', 'houjin_bangou is the 13-digit corporate number') };
  if (hb !== undefined && hb !== '' && !/^\d{13}$/.test(hb)) {
    return { ...base, error: amError('invalid_input', 'houjin_bangou must be 13 digits') };
  }
  if (hb && !isValidHoujinBangou(hb)) base.warnings.push('houjin_bangou fails the check digit; searched as given');
  const records = new Map<string, Row>();
  const read = (q: string | undefined, filters: Record<string, string>, limit: number) => {
    for (const r of searchRecords(db, enforcement, { q, filters, limit, offset: 0 }).rows) records.set(r.enforcement_id as string, r);
  };
  if (hb) read(undefined, { houjin_bangou: hb }, 500);
  if (name && [...searchNormalize(name)].length >= 2) read(name.slice(0, 200), {}, 200);
  else if (name) base.warnings.push('target_name shorter than 2 characters is ignored');
  const rows = [...records.values()]
    .map((r) => {
      const start = datePart(r.exclusion_start);
      const end = datePart(r.exclusion_end);
      const active = start !== null && start <= asOf && (end === null || end >= asOf);
      return {
        entity_id: r.enforcement_id,
        title: String(r.title ?? '').trim() ? r.title : r.enforcement_id,
        target_name: r.target_name,
        houjin_bangou: r.houjin_bangou,
        action_type: r.action_type,
        authority: r.authority,
        action_date: r.action_date,
        exclusion_start: start,
        exclusion_end: end,
        active,
        amount_yen: r.amount_yen,
        source_url: r.source_url,
      };
    })
    .sort((a, b) => String(b.action_date ?? '').localeCompare(String(a.action_date ?? '')) || String(a.entity_id).localeCompare(String(b.entity_id)));
  const active = rows.filter((r) => r.active);
  return {
    ...base,
    found: rows.length > 0,
    currently_excluded: active.length > 0,
    active_exclusions: active,
    all_count: rows.length,
    recent_history: rows.slice(0, 10),
  };
}
