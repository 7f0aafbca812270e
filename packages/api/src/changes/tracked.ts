// What the change feed follows, read from a built catalogue: programmes (the
// `default` shape plus source_url), enforcement records, tax rulesets and
// laws (their served rows). Each record becomes its served fields, less the
// fields that change on every crawl without the record changing, and a
// SHA-256 of their canonical JSON. The version fingerprint is the hash of
// every (kind, id, hash) in order, so the same content always gives the same
// fingerprint and an unchanged dataset records nothing.
import { createHash } from 'node:crypto';
import type { CatalogDatabase } from '../catalog/db.ts';
import { defaultShape, type ProgramRow } from '../catalog/programs/records.ts';
import { decodeRow, type Row } from '../catalog/queries/record-sets.ts';
import { servedColumns } from '../catalog/record-sets/spec.ts';
import { RECORD_SETS, type RecordSetSpec } from '../catalog/record-sets/index.ts';
import { canonicalJson } from '../entity-graph/canonical-json.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { RecordKind, TrackedRecord, VersionSnapshot } from '../state/repositories/changes.ts';

/** Fields that record when a source was read, not what it says. */
export const VOLATILE_FIELDS: ReadonlySet<string> = new Set(['source_fetched_at', 'source_checksum', '_source', 'fetched_at']);

interface TrackedSet {
  kind: Exclude<RecordKind, 'program'>;
  set: string;
  id: (row: Row) => string | null;
  title: (row: Row) => string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The record sets the feed follows, by kind. */
export const TRACKED_SETS: readonly TrackedSet[] = [
  { kind: 'enforcement', set: 'enforcement', id: (r) => str(r.enforcement_id), title: (r) => str(r.title) },
  { kind: 'tax_ruleset', set: 'tax_rulesets', id: (r) => str(r.unified_id), title: (r) => str(r.ruleset_name) },
  // law_id repeats (some laws have two pages); law_slug is unique where present.
  { kind: 'law', set: 'laws', id: (r) => str(r.law_slug) ?? str(r.law_id), title: (r) => str(r.title) },
];

function tracked(kind: RecordKind, id: string, served: Record<string, unknown>, title: string | null): TrackedRecord {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(served)) if (!VOLATILE_FIELDS.has(field)) body[field] = value;
  return { kind, id, hash: sha256Hex(canonicalJson(body)), body, title, prefecture: str(body.prefecture) };
}

/** A programme as the feed follows it. */
export function trackedProgram(row: ProgramRow): TrackedRecord {
  return tracked('program', row.unified_id, { ...defaultShape(row), source_url: row.source_url }, row.primary_name);
}

/** Every tracked record of the catalogue, kind by kind, ordered by id (read one row at a time). */
export function* trackedRecords(db: CatalogDatabase, sets: readonly RecordSetSpec[] = RECORD_SETS): Generator<TrackedRecord> {
  // Programmes only: a record merged into another programme's (canonical_id set) is not followed on its own.
  for (const row of db.iterate<ProgramRow>('SELECT * FROM programs WHERE canonical_id IS NULL ORDER BY unified_id')) yield trackedProgram(row);
  for (const t of TRACKED_SETS) {
    const spec = sets.find((s) => s.name === t.set);
    if (!spec) continue;
    const columns = servedColumns(spec)
      .map(([name]) => `r.${name}`)
      .join(', ');
    const rows: TrackedRecord[] = [];
    for (const raw of db.iterate<Row>(`SELECT ${columns} FROM ${spec.table} r ORDER BY r.row_id`)) {
      const decoded = decodeRow(spec, raw);
      const row = spec.shape ? spec.shape(decoded) : decoded;
      const id = t.id(row);
      if (id !== null) rows.push(tracked(t.kind, id, row, t.title(row)));
    }
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    yield* rows;
  }
}

/** The snapshot of a catalogue the recorder stores: records, counts, content fingerprint. */
export function versionSnapshot(db: CatalogDatabase, sets?: readonly RecordSetSpec[]): VersionSnapshot & { records: TrackedRecord[] } {
  const records: TrackedRecord[] = [];
  const counts: Record<string, number> = {};
  const fingerprint = createHash('sha256');
  const seen = new Set<string>();
  for (const r of trackedRecords(db, sets)) {
    const key = `${r.kind}\u0000${r.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    records.push(r);
    counts[r.kind] = (counts[r.kind] ?? 0) + 1;
    fingerprint.update(`${key}\u0000${r.hash}\n`);
  }
  return { fingerprint: fingerprint.digest('hex'), counts, records };
}
