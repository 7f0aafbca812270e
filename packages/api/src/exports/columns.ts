// The columns of a CSV export, read from the row's response schema (the
// shape the JSON answer documents), so the CSV has the same fields as the
// JSON rows: a scalar field is one column; an object with fixed properties
// (application_window) becomes one column per property (`application_window.start`);
// an array of scalars is one column, its values joined with " | "; anything
// else (objects of varying keys, arrays of objects) is one column of JSON text.
import type { TSchema } from 'typebox';

export interface Column {
  /** Header text: the field name, `parent.child` for a flattened property. */
  name: string;
  read: (row: Record<string, unknown>) => unknown;
  kind: 'scalar' | 'list' | 'json';
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[]; items?: Schema };

/** The schema without its `null` alternative (Nullable(x) -> x). */
function nonNull(schema: Schema): Schema {
  if (schema.anyOf) {
    const rest = schema.anyOf.filter((s) => s.type !== 'null');
    if (rest.length === 1) return nonNull(rest[0]);
  }
  return schema;
}

const isScalar = (s: Schema) => ['string', 'number', 'integer', 'boolean'].includes(String(s.type));

export function columnsOf(rowSchema: TSchema): Column[] {
  const out: Column[] = [];
  for (const [name, raw] of Object.entries((rowSchema as Schema).properties ?? {})) {
    const schema = nonNull(raw);
    if (schema.type === 'object' && schema.properties && Object.values(schema.properties).every((p) => isScalar(nonNull(p)))) {
      for (const sub of Object.keys(schema.properties)) {
        out.push({ name: `${name}.${sub}`, kind: 'scalar', read: (r) => (r[name] as Record<string, unknown> | null)?.[sub] ?? null });
      }
    } else if (schema.type === 'array' && schema.items && isScalar(nonNull(schema.items))) {
      out.push({ name, kind: 'list', read: (r) => r[name] });
    } else if (isScalar(schema)) {
      out.push({ name, kind: 'scalar', read: (r) => r[name] });
    } else {
      out.push({ name, kind: 'json', read: (r) => r[name] });
    }
  }
  return out;
}
