// A loader for a record set stored with one column per dataset field.
//
// The column names are the dataset's own field names (other readers of the
// catalogue, e.g. the /v1/am queries, rely on that); arrays and objects are
// stored as JSON text, booleans as 0/1. Every table has `row_id INTEGER
// PRIMARY KEY`, which is also the rowid of its optional trigram index
// `<table>_fts` (text normalised with normalizeText, like programs_fts).
import type { TObject } from 'typebox';
import { schemaValidator, json, bool, insertOrReject, type Loader } from './types.ts';
import { normalizeText } from '../text-query.ts';

export type ColumnKind = 'text' | 'int' | 'real' | 'json' | 'bool';

const SQL_TYPE: Record<ColumnKind, string> = { text: 'TEXT', int: 'INTEGER', real: 'REAL', json: 'TEXT', bool: 'INTEGER' };

export interface TypedRecordsSpec {
  table: string;
  file: string;
  schema: TObject;
  /** Dataset fields in column order, with their storage kind. */
  columns: Record<string, ColumnKind>;
  /** Columns computed from the record (e.g. a resolvable id when the dataset has none). */
  derived?: Record<string, { kind: ColumnKind; value(record: Record<string, unknown>): unknown }>;
  /** Columns (comma-separated list) that must be unique; a duplicate line is rejected. */
  unique?: string[];
  /** Extra indexes, each a comma-separated column list. */
  indexes?: string[];
  /** Trigram full-text index: column names and the text of each for a record. */
  fts?: { columns: string[]; text(record: Record<string, unknown>): (string | null | undefined)[] };
  /** Checks beyond the schema (e.g. check digits); a reason, or null. */
  check?(record: Record<string, unknown>): string | null;
  /** Name of the field identifying a record in rejection reasons. */
  idField?: string;
}

function storeValue(kind: ColumnKind, value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'json': return json(value);
    case 'bool': return bool(value);
    case 'text': return typeof value === 'string' ? value : String(value);
    default: return value as number;
  }
}

/** Column kinds of every typed table, for decoding rows on the read side (queries/record-sets.ts). */
export const TABLE_COLUMNS = new Map<string, Record<string, ColumnKind>>();

export function typedRecordsLoader(spec: TypedRecordsSpec): Loader {
  const derived = spec.derived ?? {};
  const columns = [...Object.entries(spec.columns), ...Object.entries(derived).map(([k, d]) => [k, d.kind] as const)];
  TABLE_COLUMNS.set(spec.table, Object.fromEntries(columns));
  const ddl = [
    `CREATE TABLE ${spec.table} (row_id INTEGER PRIMARY KEY, ${columns.map(([name, kind]) => `${name} ${SQL_TYPE[kind]}`).join(', ')}) STRICT;`,
    ...(spec.unique ?? []).map((cols, i) => `CREATE UNIQUE INDEX ${spec.table}_u${i} ON ${spec.table} (${cols});`),
    ...(spec.indexes ?? []).map((cols, i) => `CREATE INDEX ${spec.table}_i${i} ON ${spec.table} (${cols});`),
    spec.fts
      ? `CREATE VIRTUAL TABLE ${spec.table}_fts USING fts5(${spec.fts.columns.join(', ')}, tokenize = 'trigram');`
      : '',
  ].join('\n');
  const validateSchema = schemaValidator(spec.schema);
  return {
    name: spec.table,
    file: spec.file,
    required: false,
    ddl,
    validate(record) {
      return validateSchema(record) ?? spec.check?.(record) ?? null;
    },
    prepare(ctx) {
      const insert = ctx.db.prepare(
        `INSERT INTO ${spec.table} (${columns.map(([n]) => n).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING row_id`,
      );
      const insertFts = spec.fts
        ? ctx.db.prepare(`INSERT INTO ${spec.table}_fts (rowid, ${spec.fts.columns.join(', ')}) VALUES (?, ${spec.fts.columns.map(() => '?').join(', ')})`)
        : null;
      const fieldKinds = Object.entries(spec.columns);
      const derivedKinds = Object.entries(derived);
      return (r) => {
        const values = [
          ...fieldKinds.map(([name, kind]) => storeValue(kind, r[name])),
          ...derivedKinds.map(([, d]) => storeValue(d.kind, d.value(r))),
        ];
        let rowId = 0;
        const problem = insertOrReject(() => {
          rowId = (insert.get(...values) as { row_id: number }).row_id;
        }, spec.idField ? `${spec.idField} ${String(r[spec.idField])}` : `record in ${spec.table}`);
        if (problem) return problem;
        if (insertFts && spec.fts) {
          insertFts.run(rowId, ...spec.fts.text(r).map((t) => normalizeText(t ?? '')));
        }
        return null;
      };
    },
  };
}

/** Optimise the FTS index of a table after loading (fewer segments, faster MATCH). */
export function optimizeFts(ctx: { db: { exec(sql: string): void } }, table: string): void {
  ctx.db.exec(`INSERT INTO ${table}_fts(${table}_fts) VALUES ('optimize');`);
}
