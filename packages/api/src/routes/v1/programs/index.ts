// /v1/programs: search, detail, batch. Thin: validate (schemas), call the
// search (search/engine.ts) or the catalogue, shape the rows.
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import {
  BatchRequest, BatchResponse, Fields, ProgramDetail, ProgramMinimal, SearchQuery, SearchResponse,
} from '../../../schemas/programs.ts';

type SearchHitRow = Static<typeof SearchResponse>['results'][number];
import { normalizePrefecture } from '@jp-support/vocab';
import {
  fullShape, getProgramRow, getProgramRows, getProgramRowsByPid, normalizeAuthorityLevel, shapeRow, type FieldsShape,
} from '../../../catalog/queries/programs.ts';
import { CursorError } from '../../../catalog/search/engine.ts';
import { FACET_NAMES, parseFacets } from '../../../catalog/search/facets.ts';
import { explainParts } from '../../../catalog/search/rank.ts';
import { MAX_QUERY_TERMS, MAX_TERMS_DETAIL, understandQuery } from '../../../catalog/search/understand.ts';
import { jstDate } from '../../../time.ts';
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
    const { facets, unknown } = parseFacets(q.facets ?? []);
    if (unknown !== null) throw new HttpError(400, `Invalid querystring: facets: unknown facet ${JSON.stringify(unknown.slice(0, 50))}; one of ${FACET_NAMES.join(', ')}`);
    if (q.cursor !== undefined && (q.offset ?? 0) !== 0) throw new HttpError(400, 'Invalid querystring: cursor and offset cannot be combined (a cursor already says where the page starts)');
    const understood = q.q !== undefined ? understandQuery(q.q) : null;
    if (understood && understood.termCount > MAX_QUERY_TERMS) throw new HttpError(400, `Invalid querystring: ${MAX_TERMS_DETAIL} (got ${understood.termCount})`);
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const fields = (q.fields ?? 'default') as FieldsShape;
    const search = app.catalog.search;
    let page;
    try {
      page = search.search({
        q: q.q,
        tier: q.tier,
        // Lenient: 東京, Tokyo, tokyo-to -> 東京都; an unknown name stays as given (and matches nothing).
        prefecture: q.prefecture === undefined ? undefined : normalizePrefecture(q.prefecture) ?? q.prefecture,
        authorityLevel,
        fundingPurpose: q.funding_purpose,
        targetType: q.target_type,
        amountMin: q.amount_min,
        amountMax: q.amount_max,
        includeExcluded: q.include_excluded ?? false,
        sort: q.sort,
        facets,
        cursor: q.cursor,
        explain: q.explain ?? false,
        today: jstDate(),
        limit,
        offset,
      });
    } catch (err) {
      if (err instanceof CursorError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
      throw err;
    }
    const rows = getProgramRowsByPid(app.catalog.db, page.hits.map((h) => h.pid));
    const results = page.hits.map((hit) => {
      const row = shapeRow(rows.get(hit.pid)!, fields, false) as Record<string, unknown>;
      if (fields !== 'minimal' && hit.also.length > 0) {
        row.also_listed_as = hit.also.map((pid) => {
          const other = search.index.rows[pid];
          return { unified_id: other.unifiedId, primary_name: other.primaryName };
        });
      }
      if (hit.parts) row.score = explainParts(hit.parts);
      return row as unknown as SearchHitRow;
    });
    return {
      total: page.total, limit, offset, results, attribution: ATTRIBUTION, next_cursor: page.nextCursor,
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
