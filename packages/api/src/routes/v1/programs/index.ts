// /v1/programs: search, detail, batch. Thin: read the request (the search's
// parameter table, catalog/programs/query.ts), ask the catalogue's programme
// owner (catalog/programs/search.ts) for the answer's JSON, keep and send it
// whole (http/answers.ts: bytes, ETag, compression, made once).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import {
  BatchRequest,
  BatchResponse,
  MatchRequest,
  MatchResponse,
  ProgramDetail,
  ProgramMinimal,
  SearchResponse,
  searchQuerySchema,
} from '../../../schemas/programs.ts';
import { readMatchRequest } from '../../../catalog/programs/match.ts';
import { ProgramQueryError } from '../../../catalog/programs/query.ts';
import { dedupe } from '../../../catalog/queries/exclusions.ts';
import { answersOf, sendCachedBody } from '../../../http/answers.ts';
import { jsonSerializer, sendJsonText } from '../../../http/serialization.ts';
import { jstDate } from '../../../lib/time.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { exportPrograms } from './export.ts';
import { DetailParams, DetailQuery, programRecord, readSearch, searchPage } from './answers.ts';
import { PAGE_DATA_READ } from '../../operation.ts';

export const BATCH_MAX = 50;

const BATCH_HEAD = Buffer.from('{"results":[');
const COMMA = Buffer.from(',');

const programsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The search's parameter table (BuildOptions.programSearchParameters; the service's by default).
  const table = app.programSearchParameters;

  app.get(
    '/search',
    {
      // format=csv|jsonl exports every match: one unit per started 100 rows.
      config: { access: 'public', counter: 'daily', billed: true, unitRows: 100, session: 'pages' },
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'searchPrograms',
        tags: ['programs'],
        summary: 'Search programs by free text and structured filters',
        querystring: searchQuerySchema(table),
        response: { 200: SearchResponse, ...errorResponses(400, 401, 402, 429) },
      },
    },
    async (request, reply) => {
      const search = readSearch(request.query as Record<string, unknown>, table);
      if (search.export) return exportPrograms(app, request, reply, search);
      // One catalogue for the whole answer: a hot swap (catalog/live.ts) must not mix two files.
      return sendCachedBody(request, reply, searchPage(app.catalog, search));
    },
  );

  app.post(
    '/match',
    {
      // Metered like a search page: the same engine, one answer.
      config: PAGE_DATA_READ,
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'matchPrograms',
        tags: ['programs'],
        summary: 'Programmes for a company profile, ranked, each with why it fits and what to check',
        description:
          'Every field is optional. The profile is read into the search engine of GET /v1/programs/search: the place as `applicable_in` (its own, its prefecture’s and nationwide programmes), the need, purposes and stage as the searched words, the industry, size and stage as the ranking’s fit. A value that cannot be (a municipality of another prefecture, a founding year after next year, a JSIC code that does not exist) is a 400.',
        body: MatchRequest,
        response: { 200: MatchResponse, ...errorResponses(400, 401, 402, 429) },
      },
    },
    async (request, reply) => {
      let match: ReturnType<typeof readMatchRequest>;
      try {
        match = readMatchRequest(request.body, jstDate());
      } catch (err) {
        if (err instanceof ProgramQueryError) throw new HttpError(400, `Invalid body: ${err.message}`);
        throw err;
      }
      const catalog = app.catalog;
      const key = JSON.stringify([match.query.key, match.page, match.profile.employees, match.profile.capitalManYen, match.profile.purposes]);
      return sendCachedBody(
        request,
        reply,
        answersOf(catalog).page(key, () => catalog.programs.match(match)),
      );
    },
  );

  app.post(
    '/batch',
    {
      config: PAGE_DATA_READ,
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
      const catalog = app.catalog;
      const programs = catalog.programs;
      const found = ids.map((id) => programs.pidOf(id));
      const pids = found.filter((pid) => pid !== undefined);
      const details = answersOf(catalog).records('detail', pids, (missing) => programs.json(missing, 'detail'));
      // The records' UTF-8 bytes joined as they are (no string to build and encode again).
      const parts: Buffer[] = [BATCH_HEAD];
      const notFound: string[] = [];
      ids.forEach((id, i) => {
        const detail = found[i] === undefined ? undefined : details.get(found[i]);
        if (detail === undefined) {
          notFound.push(id);
          return;
        }
        if (parts.length > 1) parts.push(COMMA);
        parts.push(detail.body);
      });
      const attribution = programs.attributionJson(pids.filter((pid) => details.has(pid)));
      parts.push(Buffer.from(`],"not_found":${JSON.stringify(notFound)},"attribution":${attribution}}`, 'utf8'));
      return sendJsonText(reply, Buffer.concat(parts));
    },
  );

  app.get(
    '/:unified_id',
    {
      config: PAGE_DATA_READ,
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'getProgram',
        tags: ['programs'],
        summary: 'One program by unified_id',
        params: DetailParams,
        querystring: DetailQuery,
        response: { 200: Type.Union([ProgramDetail, ProgramMinimal]), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => sendCachedBody(request, reply, programRecord(app.catalog, request.params.unified_id, request.query.fields)),
  );
};

export default programsRoutes;
