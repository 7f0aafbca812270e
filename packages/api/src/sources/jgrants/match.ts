// Which programme of the catalogue a jGrants record is, by the rules that
// make two dataset records one programme (ingest/duplicate-groups.ts): the
// cleaned, normalised name (names.ts, search-text.ts#compactKey), then the
// place (a prefectural record matches a programme of that prefecture or one
// without a prefecture; a nationwide one, a programme without a prefecture),
// then the administering body when both name one. Candidates are counted by
// duplicate group: one group is a match (its best record is enriched), more
// than one is ambiguous (reported for a person, left alone), none is new.
//
// Only dataset records are candidates: programmes a previous sync added
// (`UNI-jg-…`) are this source's own and keep their stable id.
import type { CatalogDatabase } from '../../catalog/db.ts';
import { cleanProgramName } from '../../ingest/names.ts';
import { compactKey } from '../../catalog/search-text.ts';
import type { JgrantsFields } from './map.ts';

export const NEW_ID_PREFIX = 'UNI-jg-';

/** The stable id of a programme first known from jGrants. */
export function newProgramId(jgrantsId: string): string {
  return `${NEW_ID_PREFIX}${jgrantsId.replace(/[^A-Za-z0-9-]/g, '-')}`;
}

export interface CandidateRow {
  unified_id: string;
  primary_name: string;
  prefecture: string | null;
  authority_name: string | null;
  dup_group: number;
  application_window: string;
  amount_max_man_yen: number | null;
  funding_purpose: string;
  jsic_majors: string;
  target_types: string;
  official_url: string | null;
  description: string | null;
  provenance: string;
}

export type MatchOutcome =
  | { kind: 'matched'; programme: CandidateRow }
  | { kind: 'ambiguous'; candidates: { unified_id: string; primary_name: string; prefecture: string | null }[] }
  | { kind: 'new'; unified_id: string };

const COLUMNS =
  'unified_id, primary_name, prefecture, authority_name, dup_group, application_window, amount_max_man_yen, funding_purpose, jsic_majors, target_types, official_url, description, provenance';

export function matchProgramme(db: CatalogDatabase, jgrantsId: string, f: JgrantsFields): MatchOutcome {
  const key = compactKey(cleanProgramName(f.primary_name).name);
  let rows =
    key === ''
      ? []
      : db.all<CandidateRow>(
          `SELECT ${COLUMNS} FROM programs WHERE name_key = ? AND substr(unified_id, 1, ${NEW_ID_PREFIX.length}) <> '${NEW_ID_PREFIX}' ORDER BY dup_group, dup_rank`,
          key,
        );
  rows = rows.filter((r) =>
    f.nationwide || f.prefectures.length === 0 ? r.prefecture === null : r.prefecture === null || f.prefectures.includes(r.prefecture),
  );
  if (f.authority_name) {
    const body = compactKey(f.authority_name);
    rows = rows.filter((r) => !r.authority_name || compactKey(r.authority_name) === body);
  }
  const groups = [...new Set(rows.map((r) => r.dup_group))];
  if (groups.length === 0) return { kind: 'new', unified_id: newProgramId(jgrantsId) };
  if (groups.length > 1) {
    return { kind: 'ambiguous', candidates: rows.map((r) => ({ unified_id: r.unified_id, primary_name: r.primary_name, prefecture: r.prefecture })) };
  }
  // The group's best record (pid = dup_group) is the programme as served.
  const best = db.get<CandidateRow>(`SELECT ${COLUMNS} FROM programs WHERE pid = ?`, groups[0]) ?? rows[0];
  return { kind: 'matched', programme: best };
}
