// Values of an enumeration with their counts: the dataset's enumerations
// (the catalogue's `enums` table) and three of the graph itself, counted in
// this catalogue: am.record_kind (every kind, 0 included), am.relation and
// am.authority (authority entities with the number of edges pointing at them),
// plus the loan filter fields counted by the loans record set's reader
// (loan.loan_type, loan.provider), so the values of those filters can be listed.
import type { CatalogDatabase } from '../../catalog/db.ts';
import { valueCounts } from '../../catalog/queries/record-sets.ts';
import loans from '../../catalog/record-sets/loans.ts';
import type { TableSpec } from '../../catalog/record-sets/spec.ts';
import { RECORD_KINDS } from '../schema.ts';

export interface EnumRow {
  value: string;
  label_ja: string | null;
  count: number | null;
}

const GRAPH_ENUMS: Record<string, string> = {
  'am.record_kind': `WITH kinds(value) AS (VALUES ${RECORD_KINDS.map((k) => `('${k}')`).join(', ')})
    SELECT value, NULL AS label_ja, (SELECT count(*) FROM am_entities WHERE record_kind = kinds.value) AS count FROM kinds`,
  'am.relation': 'SELECT relation AS value, NULL AS label_ja, count(*) AS count FROM am_relations GROUP BY relation',
  'am.authority': `SELECT name AS value, NULL AS label_ja, (SELECT count(*) FROM am_relations WHERE dst_id = entity_id) AS count
    FROM am_entities WHERE record_kind = 'authority'`,
};

/** Enumerations that are the values of a record set's column. */
const RECORD_SET_ENUMS: Record<string, [TableSpec, string]> = {
  'loan.loan_type': [loans, 'loan_type'],
  'loan.provider': [loans, 'provider'],
};

export function enumValues(db: CatalogDatabase, name: string): EnumRow[] {
  const column = RECORD_SET_ENUMS[name];
  if (column) return valueCounts(db, ...column).map((r) => ({ ...r, label_ja: null }));
  const graph = GRAPH_ENUMS[name];
  if (graph) return db.all<EnumRow>(`SELECT value, label_ja, count FROM (${graph}) ORDER BY count DESC, value`);
  return db.all<EnumRow>('SELECT value, label_ja, count FROM enums WHERE enum = ? ORDER BY count DESC, value', name);
}
