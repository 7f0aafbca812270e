// TypeBox schemas of the record sets, built from their specs
// (catalog/record-sets/spec.ts): the search query (q, the filters and their
// aliases, limit, offset), the row (one property per served column plus the
// shape's fields; rows allow additions unless the spec fixes them), the
// search envelope and the detail.
import { Type, type TSchema, type TObject } from 'typebox';
import { Nullable, Attribution, Limit, Offset, ExportFormat, MaxRows } from './common.ts';
import { Q } from '../catalog/record-sets/params.ts';
import { servedColumns, type ColumnKind, type RecordSetSpec, type TableSpec } from '../catalog/record-sets/spec.ts';

// ---------------------------------------------------------------- schemas of a spec

const KIND_SCHEMA: Record<ColumnKind, () => TSchema> = {
  text: () => Nullable(Type.String()),
  int: () => Nullable(Type.Integer()),
  real: () => Nullable(Type.Number()),
  bool: () => Nullable(Type.Boolean()),
  json: () => Type.Unknown(),
};

/** A row of a typed table: every served column plus `extra`; additions allowed. */
export function tableRowSchema(spec: TableSpec, $id: string, extra: Record<string, TSchema> = {}, description?: string): TObject {
  const properties: Record<string, TSchema> = {};
  for (const [name, kind] of servedColumns(spec)) properties[name] = KIND_SCHEMA[kind]();
  return Type.Object({ ...properties, ...extra }, { $id, additionalProperties: true, description });
}

export interface RecordSetSchemas {
  query: TObject;
  row: TObject;
  searchResponse: TObject;
  detail: TObject;
  params: TObject;
}

const built = new WeakMap<RecordSetSpec, RecordSetSchemas>();

/** The schemas of one record set, built once per spec (their `$id`s name OpenAPI components). */
export function recordSetSchemas(spec: RecordSetSpec): RecordSetSchemas {
  let schemas = built.get(spec);
  if (schemas) return schemas;
  const row = spec.row.exact ?? tableRowSchema(spec, spec.row.$id, spec.row.extra, spec.row.description);
  const filters: Record<string, TSchema> = {};
  for (const filter of spec.search.filters) {
    filters[filter.name] = Type.Optional(filter.type);
    for (const alias of filter.aliases ?? []) {
      filters[alias] = Type.Optional({
        ...filter.type,
        description: `Same as \`${filter.name}\`. ${(filter.type as { description?: string }).description ?? ''}`.trim(),
      } as TSchema);
    }
  }
  const param = spec.detail.param ?? { name: 'id', maxLength: 200 };
  schemas = {
    query: Type.Object(
      {
        q: Type.Optional(spec.search.q ?? Q),
        ...filters,
        limit: Type.Optional(Limit(100, 20)),
        offset: Type.Optional(Offset),
        format: Type.Optional(ExportFormat),
        max_rows: Type.Optional(MaxRows),
      },
      { additionalProperties: false },
    ),
    row,
    searchResponse: Type.Object(
      { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), results: Type.Array(row), attribution: Attribution },
      { $id: spec.search.responseId },
    ),
    // A detail of its own documents the attribution block it carries.
    detail: spec.detail.schema ? tableRowSchema(spec, spec.detail.schema.$id, { ...spec.detail.schema.extra, attribution: Attribution }) : row,
    params: Type.Object({ [param.name]: Type.String({ minLength: 1, maxLength: param.maxLength }) }),
  };
  built.set(spec, schemas);
  return schemas;
}
