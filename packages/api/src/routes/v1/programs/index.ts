// /v1/programs: search, detail, batch. Thin: validate (schemas), query the
// catalogue, shape the rows.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import {
  BatchRequest, BatchResponse, Fields, ProgramDetail, ProgramMinimal, SearchQuery, SearchResponse,
} from '../../../schemas/programs.ts';
import {
  fullShape, getProgramRow, getProgramRows, normalizeAuthorityLevel, searchPrograms, shapeRow, type FieldsShape,
} from '../../../catalog/queries/programs.ts';
import { dedupe } from '../../../catalog/queries/exclusions.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { jsonSerializer } from '../../../serialization.ts';

export const BATCH_MAX = 50;

const programsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchPrograms',
      tags: ['programs'],
      summary: 'Search programs by free text and structured filters',
      querystring: SearchQuery,
      response: { 200: SearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    let authorityLevel: string | undefined;
    if (q.authority_level !== undefined) {
      authorityLevel = normalizeAuthorityLevel(q.authority_level) ?? undefined;
      if (!authorityLevel) {
        throw new HttpError(400, 'Invalid querystring: authority_level: must be one of national, prefecture, municipality, financial (or 国, 都道府県, 市区町村, 公庫)');
      }
    }
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const fields = (q.fields ?? 'default') as FieldsShape;
    const { total, rows } = searchPrograms(app.catalog.db, {
      q: q.q,
      tier: q.tier,
      prefecture: q.prefecture,
      authorityLevel,
      fundingPurpose: q.funding_purpose,
      targetType: q.target_type,
      amountMin: q.amount_min,
      amountMax: q.amount_max,
      includeExcluded: q.include_excluded ?? false,
      limit,
      offset,
    });
    return { total, limit, offset, results: rows.map((r) => shapeRow(r, fields, false)), attribution: ATTRIBUTION };
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
    return { results, not_found: notFound, attribution: ATTRIBUTION };
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
