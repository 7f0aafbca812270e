// One programme, one record, written into the catalogue at ingest
// (docs/decisions/0330-canonical-programmes.md): after every programme row
// is in, the records of one programme (duplicate-groups.ts, with the links
// of canonical.ts) get one canonical record. Per record:
//   dup_group / dup_rank  the group's canonical pid, and the rank in it (0 = canonical)
//   canonical_id          unified_id of the canonical record; null on the canonical one
//   also_listed_as        on the canonical record: the others, best first
//   aliases, search text  the canonical record is found by its other records' names too
//   provenance            `derived:canonical:<rules>` on canonical_id / also_listed_as
// Serving reads only canonical records in search, totals, facets, exports
// and the change feed; the others stay readable by their id.
import type { DatabaseSync } from 'node:sqlite';
import { searchColumns, searchNormalize } from '../catalog/search-text.ts';
import { canonicalLinks, predecessorKey } from './canonical.ts';
import { assignDuplicateGroups, type DatasetGroup, type DuplicateMember } from './duplicate-groups.ts';

interface Row {
  pid: number;
  unified_id: string;
  primary_name: string;
  name_key: string;
  prefecture: string | null;
  municipality: string | null;
  authority_level: string | null;
  excluded: number;
  tier_order: number;
  coverage_score: number;
  record_class: string;
  trust_level: string;
  official_url: string | null;
  source_url: string | null;
  fiscal_year: number | null;
  aliases: string;
  provenance: string;
}

/** Counts of what the step did (the ingest report). */
export interface CanonicalSummary {
  programmes: number;
  records: number;
  merged: number;
  byRule: Record<string, number>;
}

/** A national programme's own record: no prefecture, the authority level national. */
const isNationalRecord = (r: Row): boolean => r.prefecture === null && r.authority_level === 'national';

export function writeCanonicalProgrammes(db: DatabaseSync): CanonicalSummary {
  const rows = db
    .prepare(
      `SELECT pid, unified_id, primary_name, name_key, prefecture, municipality, authority_level, excluded, tier_order, coverage_score,
              record_class, trust_level, official_url, source_url, fiscal_year, aliases, provenance FROM programs`,
    )
    .all() as unknown as Row[];
  const members: DuplicateMember[] = rows.map((r) => ({
    pid: r.pid,
    unifiedId: r.unified_id,
    nameKey: r.name_key,
    prefecture: r.prefecture,
    municipality: r.municipality,
    excluded: r.excluded === 1,
    tierOrder: r.tier_order,
    coverage: r.coverage_score,
    recordClass: r.record_class,
    trustLevel: r.trust_level,
    hasOfficialUrl: r.official_url !== null,
    successor: predecessorKey(r.primary_name) !== null,
    fiscalYear: r.fiscal_year,
    national: isNationalRecord(r),
  }));
  const groups: DatasetGroup[] = (db.prepare('SELECT unified_ids, verdict, winner_uid FROM program_duplicates').all() as Record<string, string | null>[]).map(
    (g) => ({ unifiedIds: JSON.parse(g.unified_ids!) as string[], verdict: g.verdict, winnerUid: g.winner_uid }),
  );
  const links = canonicalLinks(
    rows.map((r) => ({
      pid: r.pid,
      name: r.primary_name,
      prefecture: r.prefecture,
      municipality: r.municipality,
      url: r.official_url ?? r.source_url,
      programme: r.record_class === 'programme',
      national: isNationalRecord(r),
    })),
  );
  const assigned = assignDuplicateGroups(members, groups, links);

  const byPid = new Map(rows.map((r) => [r.pid, r]));
  const membersOf = new Map<number, Row[]>();
  for (const r of rows) {
    const a = assigned.get(r.pid)!;
    const list = membersOf.get(a.group);
    if (list) list.push(r);
    else membersOf.set(a.group, [r]);
  }
  const summary: CanonicalSummary = { programmes: 0, records: rows.length, merged: 0, byRule: {} };
  const update = db.prepare(
    'UPDATE programs SET dup_group = ?, dup_rank = ?, canonical_id = ?, also_listed_as = ?, aliases = ?, search_text = ?, provenance = ? WHERE pid = ?',
  );
  const updateFts = db.prepare('UPDATE programs_fts SET aliases = ? WHERE rowid = ?');
  db.exec('BEGIN');
  for (const [group, list] of membersOf) {
    const canonical = byPid.get(group)!;
    const { rules } = assigned.get(group)!;
    const how = `derived:canonical:${rules.join('+')}`;
    list.sort((a, b) => assigned.get(a.pid)!.rank - assigned.get(b.pid)!.rank);
    summary.programmes++;
    if (list.length > 1) {
      summary.merged += list.length - 1;
      for (const rule of rules) summary.byRule[rule] = (summary.byRule[rule] ?? 0) + list.length - 1;
    }
    for (const r of list) {
      const rank = assigned.get(r.pid)!.rank;
      const provenance = JSON.parse(r.provenance) as Record<string, unknown>;
      let aliases = JSON.parse(r.aliases) as string[];
      let also: { unified_id: string; primary_name: string }[] = [];
      if (rank === 0 && list.length > 1) {
        also = list.slice(1).map((o) => ({ unified_id: o.unified_id, primary_name: o.primary_name }));
        // The programme is found by the names of all its records.
        aliases = [...new Set([...aliases, ...list.slice(1).map((o) => o.primary_name)])].filter((a) => a !== r.primary_name);
        provenance.also_listed_as = how;
      } else if (rank > 0) {
        provenance.canonical_id = how;
      }
      update.run(
        group,
        rank,
        rank === 0 ? null : canonical.unified_id,
        JSON.stringify(also),
        JSON.stringify(aliases),
        searchNormalize([r.primary_name, ...aliases].join(' | ')),
        JSON.stringify(provenance),
        r.pid,
      );
      if (also.length > 0) updateFts.run(searchColumns({ primary_name: r.primary_name }, aliases, '').aliases, r.pid);
    }
  }
  db.exec('COMMIT');
  return summary;
}
