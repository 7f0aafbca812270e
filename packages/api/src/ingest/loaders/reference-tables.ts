// Reference tables with no routes of their own: the municipality master and
// the enumerations observed in the data (read by the entity-graph queries).
import { Type } from 'typebox';
import { defineTable } from '../../catalog/record-sets/spec.ts';
import { Str, Int } from '../../catalog/record-sets/fields.ts';

export const municipalitiesTable = defineTable({
  table: 'municipalities',
  file: 'municipalities',
  idField: 'municipality_code',
  schema: Type.Object({
    municipality_code: Type.String({ pattern: '^[0-9]{5,6}$' }),
    name: Type.String({ minLength: 1 }),
    prefecture: Type.String({ minLength: 1 }),
    prefecture_code: Str,
    municipality_type: Str,
  }),
  columns: { municipality_code: 'text', name: 'text', prefecture: 'text', prefecture_code: 'text', municipality_type: 'text' },
  unique: ['municipality_code'],
  indexes: ['name', 'prefecture'],
});

export const enumsTable = defineTable({
  table: 'enums',
  file: 'enums',
  idField: 'value',
  schema: Type.Object({
    enum: Type.String({ minLength: 1 }),
    value: Type.String(),
    label_ja: Str,
    count: Int,
    source: Str,
  }),
  columns: { enum: 'text', value: 'text', label_ja: 'text', count: 'int', source: 'text' },
  unique: ['enum, value'],
});
