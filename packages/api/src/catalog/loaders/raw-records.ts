// A home for record sets that are stored as they come (id + JSON), until a
// dedicated loader with typed columns replaces them.
import { Type } from 'typebox';
import { schemaValidator, insertOrReject, type Loader } from './types.ts';

export function rawRecordsLoader(table: string, file: string, idField: string | null): Loader {
  const schema = idField
    ? Type.Object({ [idField]: Type.Union([Type.String({ minLength: 1 }), Type.Integer()]) })
    : Type.Object({});
  return {
    name: table,
    file,
    required: false,
    ddl: `CREATE TABLE ${table} (row_id INTEGER PRIMARY KEY, id TEXT UNIQUE, data TEXT NOT NULL) STRICT;`,
    validate: schemaValidator(schema),
    prepare(ctx) {
      const insert = ctx.db.prepare(`INSERT INTO ${table} (id, data) VALUES (?, ?)`);
      return (r) => insertOrReject(
        () => insert.run(idField ? String(r[idField]) : null, JSON.stringify(r)),
        `${idField} ${idField ? String(r[idField]) : ''}`,
      );
    },
  };
}
