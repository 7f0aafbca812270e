// The routes of a record set, from its spec (record-sets/spec.ts), registered
// under /v1/<name>:
//   GET /search   q, the spec's filters (and their aliases), limit, offset
//   GET /{id}     one record by the spec's detail key(s), 404 otherwise
// plus a set's further routes (the articles of a law), below.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION } from '../../schemas/common.ts';
import { recordSetSchemas } from '../../schemas/record-sets.ts';
import { isDateFilter, isRealDate } from '../../catalog/record-sets/params.ts';
import { getRecord, searchRecords, streamRecords, type FilterValues } from '../../catalog/queries/record-sets.ts';
import { sendExport, type ExportFormat } from './export-sender.ts';
import type { RecordSetSpec } from '../../catalog/record-sets/spec.ts';
import { HttpError } from '../../plugins/errors.ts';
import lawArticlesRoutes from './laws/articles.ts';
import { RECORD_SEARCH_ROUTE, RECORD_SET_ROUTE, notFound, page } from './record-set-helpers.ts';
import { answered, handled, operation } from '../operation.ts';

type SearchQuery = Record<string, unknown> & { q?: string; limit?: number; offset?: number; format?: string; max_rows?: number };

/** Routes under /v1/<name> beyond search and detail, by set name; they get the set's spec. */
const FURTHER_ROUTES: Record<string, FastifyPluginAsyncTypebox<{ spec: RecordSetSpec }>> = {
  laws: lawArticlesRoutes,
};

const invalid = (message: string): never => {
  throw new HttpError(400, `Invalid querystring: ${message}`);
};

/**
 * The filter values of a search query, by filter name: an alias counts as its
 * filter (two names of one filter with different values are a 400), a date
 * must be a real calendar day, and a range's low end must not exceed its high end.
 */
export function filterValues(spec: RecordSetSpec, query: Record<string, unknown>): FilterValues {
  const values: FilterValues = {};
  for (const filter of spec.search.filters) {
    const given = [filter.name, ...(filter.aliases ?? [])].filter((name) => query[name] !== undefined);
    if (given.length === 0) continue;
    const value = query[given[0]] as string | number | boolean;
    const other = given.find((name) => query[name] !== value);
    if (other) invalid(`${given[0]} and ${other} name the same filter with different values`);
    if (isDateFilter(filter.type) && !isRealDate(value as string)) invalid(`${given[0]}: not a calendar date (${String(value).slice(0, 20)})`);
    values[filter.name] = value;
  }
  for (const [low, high] of spec.search.ranges ?? []) {
    if (values[low] !== undefined && values[high] !== undefined && values[low] > values[high]) invalid(`${low} must not exceed ${high}`);
  }
  return values;
}

export function recordSetRoutes(spec: RecordSetSpec): FastifyPluginAsyncTypebox {
  const schemas = recordSetSchemas(spec);
  const attribution = spec.attribution ?? ATTRIBUTION;
  // Rows are shaped by the spec; plain JSON.stringify serialises them (the
  // schemas validate the request and document the answer), and calls in
  // process take the same answer (routes/operation.ts `answered`). Rows with
  // an exact schema are serialised by it instead, so only their routes' handlers answer.
  const route = spec.row.exact ? handled : answered;
  const param = spec.detail.param?.name ?? 'id';
  return async (app) => {
    app.get(
      '/search',
      route(
        operation(
          RECORD_SEARCH_ROUTE,
          spec.name,
          spec.search.operationId,
          spec.search.summary,
          { querystring: schemas.query, response: { 200: schemas.searchResponse } },
          [400, 401, 402, 429],
        ),
        (request) => {
          const query = request.query as SearchQuery;
          if (query.format === 'csv' || query.format === 'jsonl') return null;
          const { limit, offset } = page(query);
          const { total, rows } = searchRecords(app.catalog.db, spec, { q: query.q, filters: filterValues(spec, query), limit, offset });
          return { total, limit, offset, results: rows, attribution };
        },
        async (request, reply) => {
          const query = request.query as SearchQuery;
          const { offset } = page(query);
          const filters = filterValues(spec, query);
          return sendExport(app, request, reply, {
            format: query.format as ExportFormat,
            name: spec.name,
            rowSchema: schemas.row,
            maxRows: query.max_rows,
            offset,
            open: (window) => streamRecords(app.catalog.db, spec, { q: query.q, filters, ...window }),
          });
        },
      ),
    );

    app.get(
      `/:${param}`,
      route(
        operation(
          RECORD_SET_ROUTE,
          spec.name,
          spec.detail.operationId,
          spec.detail.summary,
          { params: schemas.params, response: { 200: schemas.detail } },
          [400, 401, 404, 429],
        ),
        (request) => {
          const id = (request.params as Record<string, string>)[param];
          const row = getRecord(app.catalog.db, spec, id);
          return row ? { ...row, attribution } : notFound(spec.label, id);
        },
      ),
    );

    const further = FURTHER_ROUTES[spec.name];
    if (further) await app.register(further, { spec });
  };
}
