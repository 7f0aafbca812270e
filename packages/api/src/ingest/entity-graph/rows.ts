// Reading the catalogue's typed tables as dataset records, and turning a
// record into the `facts` of an entity.
import type { DatabaseSync } from 'node:sqlite';
import { decodeRow } from '../../catalog/queries/record-sets.ts';
import { RECORD_SETS } from '../../catalog/record-sets/index.ts';

export type Rec = Record<string, unknown>;

/** A non-blank string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

const RECORD_SET_TABLES = new Map(RECORD_SETS.map((spec) => [spec.table, spec]));

/** The rows of a record set's table in load order (= dataset file order), decoded as the dataset published them. */
export function* typedRecords(db: DatabaseSync, table: string): Generator<Rec> {
  const spec = RECORD_SET_TABLES.get(table);
  if (!spec) throw new Error(`not the table of a record set: ${table}`);
  for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY row_id`).iterate()) yield decodeRow(spec, row as Rec);
}

/** The record without null/empty values and without internal (`_`) keys. */
export function compactFacts(r: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(r)) {
    if (k.startsWith('_')) continue;
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}
