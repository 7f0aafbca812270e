// Parameter types of the specs' filters (TypeBox; each description is the
// published documentation of the parameter) and the calendar check of dates.
import { Type, type TSchema } from 'typebox';
import { HOUJIN_BANGOU_PATTERN } from '../houjin.ts';

export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
/** A YYYY-MM-DD parameter; the route also checks that it names a real calendar day. */
export const DateParam = (description: string) => Type.String({ pattern: DATE_PATTERN, description: `${description} (YYYY-MM-DD)` });
export const HoujinParam = (description = '13-digit corporate number (法人番号)') => Type.String({ pattern: HOUJIN_BANGOU_PATTERN, description });
/** 1–100 characters. */
export const Short = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
export const Q = Type.String({
  maxLength: 500,
  description: 'Free text; terms of 3+ characters use the trigram index, shorter ones a substring match.',
});
export const Literals = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
export const Limit = (max = 100, dflt = 20) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `Page size, 1 to ${max} (default ${dflt}).` });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Rows to skip (default 0).' });

/** `format` of a search that can export: the JSON page (default) or every row as CSV or JSON Lines. */
export const ExportFormat = Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('jsonl')], {
  default: 'json',
  description:
    '`json` (default): the page. `csv` (UTF-8 with BOM, one header row, the row fields flattened) or `jsonl`: every row from `offset` (`limit` does not apply), up to `max_rows` and EXPORT_MAX_ROWS, streamed; each started 100 rows count as one request.',
});

export const MaxRows = Type.Integer({
  minimum: 1,
  maximum: 1_000_000,
  description: 'Exports: rows at most (capped by the server setting EXPORT_MAX_ROWS, default 10,000).',
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** True when the YYYY-MM-DD part names a real calendar day (the pattern already checked the form). */
export function isRealDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A filter whose value must be a real calendar day. */
export const isDateFilter = (type: TSchema): boolean => (type as { pattern?: string }).pattern === DATE_PATTERN;
