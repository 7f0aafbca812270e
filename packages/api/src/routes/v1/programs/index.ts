// /v1/programs: search, detail, batch. Thin: validate (schemas), call the
// search (search/engine.ts) or the catalogue, shape the rows.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import { programAttribution } from '../../../schemas/attribution.ts';
import {
  BatchRequest, BatchResponse, Fields, ProgramDetail, ProgramMinimal, SearchQuery, SearchResponse,
} from '../../../schemas/programs.ts';

import {
  fullShape, getProgramRow, getProgramRows, getProgramRowsByPid, shapeRow, type FieldsShape,
} from '../../../catalog/queries/programs.ts';
import { CursorError } from '../../../catalog/search/engine.ts';
import { FACET_NAMES, parseFacets } from '../../../catalog/search/facets.ts';
import { ProgramQueryError, searchRequestOf } from '../../../catalog/queries/program-query.ts';
import { hitRow } from './hit-row.ts';
import { jstDate } from '../../../time.ts';
import { dedupe } from '../../../catalog/queries/exclusions.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { jsonSerializer } from '../../../serialization.ts';
import { exportPrograms } from './export.ts';

export const BATCH_MAX = 50;

const programsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    // format=csv|jsonl exports every match: one unit per started 100 rows.
    config: { access: 'public', counter: 'daily', billed: true, unitRows: 100 },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchPrograms',
      tags: ['programs'],
      summary: 'Search programs by free text and structured filters',
      querystring: SearchQuery,
      response: { 200: SearchResponse, ...errorResponses(400, 401, 402, 429) },
    },
  }, async (request, reply) => {
    const q = request.query;
    if (q.format === 'csv' || q.format === 'jsonl') return exportPrograms(app, request, reply, q);
    const { facets, unknown } = parseFacets(q.facets ?? []);
    if (unknown !== null) throw new HttpError(400, `Invalid querystring: facets: unknown facet ${JSON.stringify(unknown.slice(0, 50))}; one of ${FACET_NAMES.join(', ')}`);
    if (q.cursor !== undefined && (q.offset ?? 0) !== 0) throw new HttpError(400, 'Invalid querystring: cursor and offset cannot be combined (a cursor already says where the page starts)');
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const fields = (q.fields ?? 'default') as FieldsShape;
    const search = app.catalog.search;
    let page;
    try {
      page = search.search({
        ...searchRequestOf(q, jstDate()),
        facets,
        cursor: q.cursor,
        explain: q.explain ?? false,
        limit,
        offset,
      });
    } catch (err) {
      if (err instanceof CursorError || err instanceof ProgramQueryError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
      throw err;
    }
    const rows = getProgramRowsByPid(app.catalog.db, page.hits.map((h) => h.pid));
    const results = page.hits.map((hit) => hitRow(search, rows.get(hit.pid)!, hit, fields));
    return {
      total: page.total, limit, offset, results, attribution: programAttribution(rows.values()), next_cursor: page.nextCursor,
      ...(page.facets ? { facets: page.facets } : {}),
    };
  });

  app.post('/batch', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'batchGetPrograms',
      tags: ['programs'],
      summary: 'Fetch up to 50 programs (full shape) in one call; counts as one request',
      body: BatchRequest,
      response: { 200: BatchResponse, ...errorResponses(400, 401, 422, 429) },
    },
  }, async (request) => {
    const ids = dedupe(request.body.unified_ids);
    if (request.body.unified_ids.length === 0) throw new HttpError(422, 'unified_ids must contain at least 1 id');
    if (ids.length > BATCH_MAX) throw new HttpError(422, `unified_ids must contain at most ${BATCH_MAX} ids (got ${ids.length})`);
    const found = getProgramRows(app.catalog.db, ids);
    const results = [];
    const notFound: string[] = [];
    for (const id of ids) {
      const row = found.get(id);
      if (row) results.push(fullShape(row, true));
      else notFound.push(id);
    }
    return { results, not_found: notFound, attribution: programAttribution(found.values()) };
  });

  app.get('/:unified_id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getProgram',
      tags: ['programs'],
      summary: 'One program by unified_id',
      params: Type.Object({ unified_id: Type.String({ minLength: 1, maxLength: 100 }) }),
      querystring: Type.Object({ fields: Type.Optional(Fields) }, { additionalProperties: false }),
      response: { 200: Type.Union([ProgramDetail, ProgramMinimal]), ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getProgramRow(app.catalog.db, request.params.unified_id);
    if (!row) throw new HttpError(404, `Program not found: ${request.params.unified_id}`);
    return shapeRow(row, (request.query.fields ?? 'default') as FieldsShape, true);
  });
};

export default programsRoutes;
