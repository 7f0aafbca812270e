// /v1/am/enforcement: does a company (corporate number or name) have an
// exclusion period in force on a date, and its enforcement history.
import type { CatalogDatabase } from '../catalog/db.ts';
import { isValidHoujinBangou } from '../catalog/houjin.ts';
import { normalizeText } from '../catalog/text-query.ts';
import { jstDate } from '../lib/time.ts';
import { amError, type AmError } from './envelope.ts';
import { resolveDate } from './params.ts';
import { searchEntities, type Entity } from './queries/entities.ts';

export function enforcementCheck(db: CatalogDatabase, p: { houjin_bangou?: string; target_name?: string; as_of_date?: string }, today = jstDate()) {
  const queried = { houjin_bangou: p.houjin_bangou ?? null, target_name: p.target_name ?? null, as_of_date: p.as_of_date ?? 'today' };
  const base = {
    found: false,
    currently_excluded: false,
    active_exclusions: [] as Record<string, unknown>[],
    all_count: 0,
    queried,
    recent_history: [] as Record<string, unknown>[],
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
  const records = new Map<string, Entity>();
  if (hb) {
    // The number is in each record's search text (valid or not), so a number failing the check digit still matches.
    const { rows } = searchEntities(db, { kinds: ['enforcement'], termGroups: [[hb]], order: 'name', limit: 500, offset: 0 });
    for (const e of rows) if (e.facts.houjin_bangou === hb) records.set(e.entity_id, e);
  }
  if (name && [...normalizeText(name)].length >= 2) {
    const { rows } = searchEntities(db, { kinds: ['enforcement'], termGroups: [[normalizeText(name).slice(0, 200)]], order: 'name', limit: 200, offset: 0 });
    for (const e of rows) records.set(e.entity_id, e);
  } else if (name) {
    base.warnings.push('target_name shorter than 2 characters is ignored');
  }
  const rows = [...records.values()]
    .map((e) => {
      const start = e.valid_from;
      const end = e.valid_until;
      const active = start !== null && start <= asOf && (end === null || end >= asOf);
      return {
        entity_id: e.entity_id,
        title: e.name,
        target_name: e.facts.target_name ?? null,
        houjin_bangou: e.facts.houjin_bangou ?? null,
        action_type: e.status,
        authority: e.authority_name,
        action_date: e.facts.action_date ?? null,
        exclusion_start: start,
        exclusion_end: end,
        active,
        amount_yen: e.facts.amount_yen ?? null,
        source_url: e.source_url,
      };
    })
    .sort((a, b) => String(b.action_date ?? '').localeCompare(String(a.action_date ?? '')) || a.entity_id.localeCompare(b.entity_id));
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
