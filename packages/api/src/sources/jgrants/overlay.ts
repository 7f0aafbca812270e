// Overlay records (ingest/overlays.ts) from a mapped jGrants record: the
// fields it enriches on a matched programme, or a whole new programme. Every
// field it sets names its source in `_provenance`:
//   "jgrants: 出典：Jグランツ <portal url> fetched <time> sha256:<checksum of the raw record>"
// which is also how responses know to credit Jグランツ (catalog/attribution.ts).
import type { JgrantsFields } from './map.ts';
import { JGRANTS_CREDIT } from '../../catalog/attribution.ts';
import type { CandidateRow } from './match.ts';

export interface Fetched {
  id: string;
  fetchedAt: string;
  checksum: string;
}

export function provenanceOf(f: Fetched, url: string): string {
  return `jgrants: ${JGRANTS_CREDIT} ${url} fetched ${f.fetchedAt} sha256:${f.checksum.slice(0, 16)}`;
}

const parseList = (json: string): string[] => {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

const union = (base: string[], extra: string[]) => [...base, ...extra.filter((x) => !base.includes(x))];
const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The enrichment of a matched programme and the names of the fields it changes. */
export function enrichment(row: CandidateRow, f: JgrantsFields, fetched: Fetched): { record: Record<string, unknown>; changed: string[] } {
  const prov = provenanceOf(fetched, f.source_url);
  const record: Record<string, unknown> = { _overlay: 'enrich', unified_id: row.unified_id };
  const provenance: Record<string, string> = {};
  const set = (field: string, value: unknown) => {
    record[field] = value;
    provenance[field] = prov;
  };
  const changed: string[] = [];
  if (f.application_window) {
    let base: Record<string, unknown> = {};
    try {
      base = JSON.parse(row.application_window) ?? {};
    } catch {
      /* an unreadable window is replaced */
    }
    // The dataset's notes (cycle, fiscal year) stay; the dates are jGrants'.
    const window = { ...base, ...f.application_window };
    if (base.start !== window.start || base.end !== window.end) changed.push('application_window');
    set('application_window', window);
  }
  if (f.amount_max_man_yen !== null) {
    if (row.amount_max_man_yen !== f.amount_max_man_yen) changed.push('amount_max_man_yen');
    set('amount_max_man_yen', f.amount_max_man_yen);
  }
  if (f.prefecture && row.prefecture === null) {
    changed.push('prefecture');
    set('prefecture', f.prefecture);
  }
  for (const field of ['funding_purpose', 'jsic_majors', 'target_types'] as const) {
    if (f[field].length === 0) continue;
    const base = parseList(row[field]);
    const merged = union(base, f[field]);
    if (!sameList(base, merged)) {
      changed.push(field);
      set(field, merged);
    }
  }
  if (f.description !== null) {
    if (row.description !== f.description) changed.push('description');
    set('description', f.description);
  }
  if (f.official_url && !row.official_url) {
    changed.push('official_url');
    set('official_url', f.official_url);
  }
  record._provenance = { ...provenance, jgrants_record: prov };
  return { record, changed };
}

/** A programme first known from jGrants (tier B: an official, current record with its window; docs/decisions/0022-jgrants-matching.md). */
export function newProgramme(unifiedId: string, f: JgrantsFields, fetched: Fetched): Record<string, unknown> {
  const prov = provenanceOf(fetched, f.source_url);
  const record: Record<string, unknown> = {
    _overlay: 'new',
    unified_id: unifiedId,
    primary_name: f.primary_name,
    authority_level: f.nationwide ? 'national' : null,
    authority_name: f.authority_name,
    prefecture: f.prefecture,
    municipality: null,
    program_kind: 'subsidy',
    program_kind_group: 'subsidy',
    official_url: f.official_url ?? f.source_url,
    amount_max_man_yen: f.amount_max_man_yen,
    tier: 'B',
    excluded: false,
    target_types: f.target_types,
    funding_purpose: f.funding_purpose,
    application_window: f.application_window,
    source_url: f.source_url,
    source_fetched_at: fetched.fetchedAt,
    source_checksum: `sha256:${fetched.checksum}`,
    in_public_index: true,
    jsic_majors: f.jsic_majors,
    name_as_published: f.primary_name,
    description: f.description,
  };
  const provenance: Record<string, string> = { jgrants_record: prov };
  for (const [k, v] of Object.entries(record)) if (v !== null && !k.startsWith('_') && k !== 'unified_id') provenance[k] = prov;
  record._provenance = provenance;
  return record;
}
