// Shared TypeBox building blocks. The route schemas are the single source of
// validation, serialisation and the published OpenAPI document.
import { Type, type TSchema } from 'typebox';
import { ExportFormat, Limit, MaxRows, Offset } from '../catalog/record-sets/params.ts';
import { ONE_LINE } from '../lib/untrusted-text.ts';

// Parameter types shared with the catalogue's parameter tables (record-set specs, programme search).
export { ExportFormat, Limit, MaxRows, Offset };

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A name or label a caller stores and the service shows elsewhere (mail,
 * calendars, exports, lists): one line of text, no control character (issue
 * 24, L2; lib/untrusted-text.ts).
 */
export const StoredName = (options: { minLength?: number; maxLength: number; description?: string }) => Type.String({ ...options, pattern: ONE_LINE });

/** The standard error body of every 4xx/5xx. */
export const ErrorBody = Type.Object(
  { detail: Type.String({ description: 'Human-readable reason.' }) },
  { $id: 'Error', additionalProperties: true, description: 'Error body: `{"detail": string}`; some statuses add fields.' },
);

export const Attribution = Type.Object(
  {
    source: Type.String(),
    source_url: Type.String(),
    license: Type.String(),
    edited: Type.Boolean(),
    notice: Type.String(),
  },
  { $id: 'Attribution', description: 'Public-data-licence attribution with an edit/processing note.' },
);

/** The block's value lives with the data it credits (catalog/attribution.ts). */
export { ATTRIBUTION } from '../catalog/attribution.ts';

/** Common error responses for the OpenAPI document; routes spread what applies. */
export const errorResponses = (...statuses: number[]): Record<number, typeof ErrorBody> => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

/** Envelope of every paginated search. */
export const SearchEnvelope = <T extends TSchema>(row: T, extra: Record<string, TSchema> = {}) =>
  Type.Object({
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    results: Type.Array(row),
    attribution: Attribution,
    ...extra,
  });

/** The media types of an export answer, added to the 200 answer of every route declaring `unitRows` (plugins/openapi.ts). */
export const EXPORT_MEDIA_TYPES = {
  'text/csv': { schema: { type: 'string', description: 'format=csv: UTF-8 with BOM; one header row; the row fields flattened' } },
  'application/x-ndjson': { schema: { type: 'string', description: 'format=jsonl: one JSON row per line' } },
};
