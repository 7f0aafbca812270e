// How much a programme matters to the people who search the catalogue, apart
// from how complete its record is (docs/decisions/0302-programme-importance.md).
// The tier is upstream's completeness grade: flagship national programmes
// (雇用調整助成金, トライアル雇用助成金) sit at tier C because their records
// are thin, so ranking by tier alone buries them. Importance counts facts of
// another kind, one point each, read at ingest after the canonical
// programmes are decided (canonical-records.ts):
//
//   records   the dataset lists it under two or more records (rounds, areas,
//             pages of several sources): a programme that runs repeatedly or
//             widely
//   mentions  a law (program_law_refs) or an enforcement record (a finding
//             of improper receipt names the programmes it concerns) cites it
//   courses   two or more other served programmes are its courses, frames or
//             types (人材確保等支援助成金（テレワークコース）, ものづくり補助金 グローバル枠):
//             a programme run in many branches (decision 0327)
//
// National reach is not a point: ranking already reads it from the
// programme's place (rank.ts: nationwide first when no place is named, the
// named place first when one is); counted twice it put national programmes
// above the named prefecture's own. Nor is the upper amount: it is a cap per
// applicant, not a budget, and it favoured large industrial funds over the
// SME programmes people search for (both measured in the decision).
//
// Stored per record (the programme's value on each of its records) with
// provenance `derived:importance:<points>`; ranking reads it as one prior
// (catalog/search/rank.ts).
import type { DatabaseSync } from 'node:sqlite';

export type ImportancePoint = 'records' | 'mentions' | 'courses';

export interface ProgrammeFacts {
  /** Records of the programme (the canonical one and those merged into it). */
  records: number;
  /** Laws and enforcement records that cite any of its records. */
  mentions: number;
  /** Other served programmes named as its courses, frames or types. */
  courses: number;
}

/** The points a programme earns, in a fixed order. */
export function importancePoints(f: ProgrammeFacts): ImportancePoint[] {
  const points: ImportancePoint[] = [];
  if (f.records >= 2) points.push('records');
  if (f.mentions >= 1) points.push('mentions');
  if (f.courses >= 2) points.push('courses');
  return points;
}

interface Row {
  pid: number;
  unified_id: string;
  dup_group: number;
  provenance: string;
  primary_name: string;
  tier: string | null;
}

/** A course's, frame's or type's name: the programme's name, then the branch (…（テレワークコース）, … グローバル枠). */
const BRANCH = /^(\S.{3,}?)\s*[（(［\s]\s*\S*(?:コース|枠|型|タイプ)/u;

/** Per programme name, the other programmes (duplicate groups) served as its branches. */
function branchesByName(rows: Row[]): Map<string, Set<number>> {
  const branches = new Map<string, Set<number>>();
  for (const r of rows) {
    if (r.tier === 'X') continue;
    const stem = BRANCH.exec(r.primary_name)?.[1].trim();
    if (stem === undefined) continue;
    const set = branches.get(stem) ?? new Set<number>();
    set.add(r.dup_group);
    branches.set(stem, set);
  }
  return branches;
}

/** Counts of what the step did (the quality report reads the column itself). */
export interface ImportanceSummary {
  programmes: number;
  byPoints: Record<number, number>;
}

/** Writes `importance` (and its provenance) on every record, from its programme's facts. */
export function writeImportance(db: DatabaseSync): ImportanceSummary {
  const rows = db.prepare('SELECT pid, unified_id, dup_group, provenance, primary_name, tier FROM programs').all() as unknown as Row[];
  const branches = branchesByName(rows);
  const mentions = new Map<string, number>();
  const mention = (id: string): void => {
    mentions.set(id, (mentions.get(id) ?? 0) + 1);
  };
  if (hasTable(db, 'program_law_refs')) {
    for (const r of db.prepare('SELECT unified_id FROM program_law_refs').all() as { unified_id: string | null }[]) {
      if (r.unified_id) mention(r.unified_id);
    }
  }
  // A catalogue built with other record sets (a test's plan) may have no enforcement table.
  if (hasTable(db, 'enforcement')) {
    const related = db.prepare('SELECT related_programs_auto FROM enforcement WHERE related_programs_auto IS NOT NULL').all() as {
      related_programs_auto: string;
    }[];
    for (const r of related) for (const id of parseRelated(r.related_programs_auto)) mention(id);
  }
  const groups = new Map<number, Row[]>();
  for (const r of rows) {
    const list = groups.get(r.dup_group);
    if (list) list.push(r);
    else groups.set(r.dup_group, [r]);
  }
  const update = db.prepare('UPDATE programs SET importance = ?, provenance = ? WHERE pid = ?');
  const summary: ImportanceSummary = { programmes: 0, byPoints: {} };
  db.exec('BEGIN');
  for (const list of groups.values()) {
    const points = importancePoints({
      records: list.length,
      mentions: list.reduce((n, r) => n + (mentions.get(r.unified_id) ?? 0), 0),
      courses: Math.max(0, ...list.map((r) => [...(branches.get(r.primary_name) ?? [])].filter((g) => g !== r.dup_group).length)),
    });
    summary.programmes++;
    summary.byPoints[points.length] = (summary.byPoints[points.length] ?? 0) + 1;
    if (points.length === 0) continue;
    for (const r of list) {
      const provenance = JSON.parse(r.provenance) as Record<string, unknown>;
      provenance.importance = `derived:importance:${points.join('+')}`;
      update.run(points.length, JSON.stringify(provenance), r.pid);
    }
  }
  db.exec('COMMIT');
  return summary;
}

function hasTable(db: DatabaseSync, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** The unified_ids of an enforcement record's related programmes (a JSON list of ids or of {unified_id}). */
function parseRelated(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const ids: string[] = [];
  for (const v of value) {
    if (typeof v === 'string') ids.push(v);
    else if (v && typeof v === 'object' && typeof (v as { unified_id?: unknown }).unified_id === 'string') ids.push((v as { unified_id: string }).unified_id);
  }
  return ids;
}
