// Shared TypeBox building blocks. The route schemas are the single source of
// validation, serialisation and the published OpenAPI document.
import { Type, type TSchema } from 'typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

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

export const ATTRIBUTION = Object.freeze({
  source: '各府省・都道府県・市区町村・日本政策金融公庫の公開情報、デジタル庁 e-Gov 法令データ提供システム',
  source_url: 'https://laws.e-gov.go.jp/',
  license: '政府標準利用規約 (第2.0版) / CC BY 4.0',
  edited: true,
  notice:
    'Compiled and normalised from public sources; derived fields (coverage, bands, aliases) are ours. ' +
    "Each record's source_url names its primary source: verify there before relying on it.",
});

/** Common error responses for the OpenAPI document; routes spread what applies. */
export const errorResponses = (...statuses: number[]): Record<number, typeof ErrorBody> => Object.fromEntries(statuses.map((s) => [s, ErrorBody]));

export const Limit = (max = 100, dflt = 20) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `Page size, 1 to ${max} (default ${dflt}).` });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Rows to skip (default 0).' });

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

/** The media types of an export answer, added to the 200 answer of every route declaring `unitRows` (plugins/openapi.ts). */
export const EXPORT_MEDIA_TYPES = {
  'text/csv': { schema: { type: 'string', description: 'format=csv: UTF-8 with BOM; one header row; the row fields flattened' } },
  'application/x-ndjson': { schema: { type: 'string', description: 'format=jsonl: one JSON row per line' } },
};
