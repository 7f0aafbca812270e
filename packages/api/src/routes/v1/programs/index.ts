// /v1/programs: search, detail, batch. Thin: validate (schemas), call the
// search (search/engine.ts) or the catalogue, shape the rows.
//
// The answers are assembled from JSON text serialised once per catalogue
// (catalog/program-bodies.ts): a detail is its record's cached JSON, a batch
// the records' JSON joined, a search page is cached whole under the search's
// normalised key plus page, shape and extras. The bytes are those
// JSON.stringify of the shaped objects gives (test/routes/program-bodies.test.ts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { JGRANTS_CREDIT, programAttribution } from '../../../schemas/attribution.ts';
import { BatchRequest, BatchResponse, Fields, ProgramDetail, ProgramMinimal, SearchQuery, SearchResponse } from '../../../schemas/programs.ts';

import { getProvenancesById, getProvenancesByPid, type FieldsShape } from '../../../catalog/queries/programs.ts';
import type { Catalog } from '../../../catalog/catalog.ts';
import { CursorError, type SearchRequest } from '../../../catalog/search/engine.ts';
import { FACET_NAMES, parseFacets } from '../../../catalog/search/facets.ts';
import { ProgramQueryError, searchRequestOf } from '../../../catalog/queries/program-query.ts';
import { hitJson } from './hit-row.ts';
import { jstDate } from '../../../lib/time.ts';
import { dedupe } from '../../../catalog/queries/exclusions.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { jsonSerializer, sendCachedBody, sendJsonText } from '../../../http/serialization.ts';
import { exportPrograms } from './export.ts';

export const BATCH_MAX = 50;

const ATTRIBUTION_JSON = JSON.stringify(ATTRIBUTION);

/**
 * The attribution block of an answer with these records, as JSON
 * (schemas/attribution.ts): the constant one, unless the catalogue holds rows
 * a source asks credit for — then the rows' provenance is read (in the order
 * the full rows were read before, so the credited URLs keep their order).
 */
function attributionJson(catalog: Catalog, rows: { pids: number[] } | { ids: string[] }): string {
  if (!catalog.bodies.anyProvenanceWith(JGRANTS_CREDIT)) return ATTRIBUTION_JSON;
  const provenances = 'pids' in rows ? getProvenancesByPid(catalog.db, rows.pids) : getProvenancesById(catalog.db, rows.ids);
  return JSON.stringify(programAttribution(provenances.values()));
}
const BATCH_HEAD = Buffer.from('{"results":[');
const COMMA = Buffer.from(',');

/** One search page as JSON text: the members in the order of the SearchResponse object the route used to return. */
function searchPageJson(catalog: Catalog, request: SearchRequest, fields: FieldsShape): string {
  const search = catalog.search;
  const page = search.search(request);
  const records = catalog.bodies.records(
    page.hits.map((h) => h.pid),
    fields,
  );
  const results = page.hits.map((hit) => hitJson(search, records.get(hit.pid)!, hit, fields));
  const facets = page.facets ? `,"facets":${JSON.stringify(page.facets)}` : '';
  return (
    `{"total":${page.total},"limit":${request.limit},"offset":${request.offset},"results":[${results.join(',')}],` +
    `"attribution":${attributionJson(catalog, { pids: page.hits.map((h) => h.pid) })},"next_cursor":${JSON.stringify(page.nextCursor)}${facets}}`
  );
}

const programsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/search',
    {
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
    },
    async (request, reply) => {
      const q = request.query;
      if (q.format === 'csv' || q.format === 'jsonl') return exportPrograms(app, request, reply, q);
      const { facets, unknown } = parseFacets(q.facets ?? []);
      if (unknown !== null)
        throw new HttpError(400, `Invalid querystring: facets: unknown facet ${JSON.stringify(unknown.slice(0, 50))}; one of ${FACET_NAMES.join(', ')}`);
      if (q.cursor !== undefined && (q.offset ?? 0) !== 0)
        throw new HttpError(400, 'Invalid querystring: cursor and offset cannot be combined (a cursor already says where the page starts)');
      const limit = q.limit ?? 20;
      const offset = q.offset ?? 0;
      const fields = (q.fields ?? 'default') as FieldsShape;
      const catalog = app.catalog;
      let answer;
      try {
        const request: SearchRequest = {
          ...searchRequestOf(q, jstDate()),
          facets,
          cursor: q.cursor,
          explain: q.explain ?? false,
          limit,
          offset,
        };
        // The search's own key (normalised q, filters, sort, today for sort=deadline) plus what shapes this page.
        const pageKey = JSON.stringify([catalog.search.keyOf(request), limit, offset, q.cursor ?? null, fields, request.explain, facets]);
        answer = catalog.bodies.page(pageKey, () => searchPageJson(catalog, request, fields));
      } catch (err) {
        if (err instanceof CursorError || err instanceof ProgramQueryError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
        throw err;
      }
      return sendCachedBody(request, reply, answer);
    },
  );

  app.post(
    '/batch',
    {
      config: { access: 'public', counter: 'daily', billed: true },
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'batchGetPrograms',
        tags: ['programs'],
        summary: 'Fetch up to 50 programs (full shape) in one call; counts as one request',
        body: BatchRequest,
        response: { 200: BatchResponse, ...errorResponses(400, 401, 422, 429) },
      },
    },
    async (request, reply) => {
      const ids = dedupe(request.body.unified_ids);
      if (request.body.unified_ids.length === 0) throw new HttpError(422, 'unified_ids must contain at least 1 id');
      if (ids.length > BATCH_MAX) throw new HttpError(422, `unified_ids must contain at most ${BATCH_MAX} ids (got ${ids.length})`);
      const bodies = app.catalog.bodies;
      const pids = ids.map((id) => bodies.pidOf(id));
      const details = bodies.detailsOf(
        pids.filter((pid) => pid !== undefined),
        'detail',
      );
      // The records' UTF-8 bytes joined as they are (no string to build and encode again).
      const parts: Buffer[] = [BATCH_HEAD];
      const notFound: string[] = [];
      ids.forEach((id, i) => {
        const detail = pids[i] === undefined ? undefined : details.get(pids[i]);
        if (detail === undefined) {
          notFound.push(id);
          return;
        }
        if (parts.length > 1) parts.push(COMMA);
        parts.push(detail.body);
      });
      const attribution = attributionJson(app.catalog, { ids: ids.filter((_, i) => details.has(pids[i]!)) });
      parts.push(Buffer.from(`],"not_found":${JSON.stringify(notFound)},"attribution":${attribution}}`, 'utf8'));
      return sendJsonText(reply, Buffer.concat(parts));
    },
  );

  app.get(
    '/:unified_id',
    {
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
    },
    async (request, reply) => {
      const bodies = app.catalog.bodies;
      const pid = bodies.pidOf(request.params.unified_id);
      // A detail is the full shape (with source confidence) unless minimal is asked for.
      const answer = pid === undefined ? undefined : bodies.detail(pid, request.query.fields === 'minimal' ? 'minimal' : 'detail');
      if (!answer) throw new HttpError(404, `Program not found: ${request.params.unified_id}`);
      return sendCachedBody(request, reply, answer);
    },
  );
};

export default programsRoutes;
