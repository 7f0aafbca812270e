// The loader of a typed table (record-sets/spec.ts TableSpec): one column
// per dataset field, plus the derived columns.
//
// The column names are the dataset's own field names (the entity graph's
// build reads them); arrays and objects are stored as JSON text, booleans as
// 0/1. Every table has `row_id INTEGER PRIMARY KEY`, which is also the rowid
// of its optional trigram index `<table>_fts` (the spec's searchable columns,
// folded by programme search's rule, search-text.ts#searchNormalize, as
// queries are: catalog/queries/record-sets.ts).
import { schemaValidator, json, bool, insertOrReject, type Loader } from './types.ts';
import { searchNormalize } from '../../catalog/search-text.ts';
import { joinFields, storedColumns, type ColumnKind, type Row, type TableSpec } from '../../catalog/record-sets/spec.ts';

const SQL_TYPE: Record<ColumnKind, string> = { text: 'TEXT', int: 'INTEGER', real: 'REAL', json: 'TEXT', bool: 'INTEGER' };

function storeValue(kind: ColumnKind, value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'json':
      return json(value);
    case 'bool':
      return bool(value);
    case 'text':
      return typeof value === 'string' ? value : String(value);
    default:
      return value as number;
  }
}

/** The text of each searchable column for a record, in index order. */
function searchText(spec: TableSpec): ((record: Row) => string)[] {
  return Object.entries(spec.searchable ?? {}).map(([column, field]) =>
    field.text ? (r: Row) => field.text!(r) ?? '' : (r: Row) => joinFields(r, field.from ?? [column]),
  );
}

export function typedRecordsLoader(spec: TableSpec): Loader {
  const columns = storedColumns(spec);
  const ftsColumns = Object.keys(spec.searchable ?? {});
  const ddl = [
    `CREATE TABLE ${spec.table} (row_id INTEGER PRIMARY KEY, ${columns.map(([name, kind]) => `${name} ${SQL_TYPE[kind]}`).join(', ')}) STRICT;`,
    ...(spec.unique ?? []).map((cols, i) => `CREATE UNIQUE INDEX ${spec.table}_u${i} ON ${spec.table} (${cols});`),
    ...(spec.indexes ?? []).map((cols, i) => `CREATE INDEX ${spec.table}_i${i} ON ${spec.table} (${cols});`),
    ftsColumns.length > 0 ? `CREATE VIRTUAL TABLE ${spec.table}_fts USING fts5(${ftsColumns.join(', ')}, tokenize = 'trigram');` : '',
  ].join('\n');
  const validateSchema = schemaValidator(spec.schema);
  return {
    name: spec.table,
    file: spec.file,
    required: false,
    ddl,
    reviewed: spec.reviewed,
    validate(record) {
      return validateSchema(record) ?? spec.check?.(record) ?? null;
    },
    prepare(ctx) {
      const insert = ctx.db.prepare(
        `INSERT INTO ${spec.table} (${columns.map(([n]) => n).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING row_id`,
      );
      const insertFts =
        ftsColumns.length > 0
          ? ctx.db.prepare(`INSERT INTO ${spec.table}_fts (rowid, ${ftsColumns.join(', ')}) VALUES (?, ${ftsColumns.map(() => '?').join(', ')})`)
          : null;
      const texts = searchText(spec);
      const fieldKinds = Object.entries(spec.columns);
      const derived = Object.values(spec.derived ?? {});
      return (given) => {
        const r = spec.normalise ? spec.normalise({ ...given }) : given;
        const values = [...fieldKinds.map(([name, kind]) => storeValue(kind, r[name])), ...derived.map((d) => storeValue(d.kind, d.value(r)))];
        let rowId = 0;
        const problem = insertOrReject(
          () => {
            rowId = (insert.get(...values) as { row_id: number }).row_id;
          },
          spec.idField ? `${spec.idField} ${String(r[spec.idField])}` : `record in ${spec.table}`,
        );
        if (problem) return problem;
        insertFts?.run(rowId, ...texts.map((text) => searchNormalize(text(r))));
        return null;
      };
    },
  };
}
