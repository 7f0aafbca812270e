// /v1/programs: search, match, batch, detail. Thin: read the request (the search's
// parameter table, catalog/programs/query.ts), ask the catalogue's programme
// owner (catalog/programs/search.ts) for the answer's JSON, keep and send it
// whole (http/answers.ts: bytes, ETag, compression, made once). Each answer is
// declared with `answered` (routes/operation.ts), so the MCP tools' calls take
// the same functions in process (plugins/in-process.ts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BatchRequest,
  BatchResponse,
  MatchRequest,
  MatchResponse,
  ProgramDetail,
  Fields,
  ProgramMinimal,
  SearchResponse,
  searchQuerySchema,
} from '../../../schemas/programs.ts';
import { readMatchRequest } from '../../../catalog/programs/match.ts';
import { ProgramQueryError, readSearchRequest, type SearchRequest } from '../../../catalog/programs/query.ts';
import type { ProgramSearchParameter } from '../../../catalog/programs/parameters.ts';
import type { Catalog } from '../../../catalog/catalog.ts';
import { CursorError } from '../../../catalog/search/engine.ts';
import { dedupe } from '../../../catalog/queries/exclusions.ts';
import { answersOf, type CachedBody } from '../../../http/answers.ts';
import { jstDate } from '../../../lib/time.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { exportPrograms } from './export.ts';
import { PAGE_DATA_READ, answered, operation, operations } from '../../operation.ts';

export const BATCH_MAX = 50;

const BATCH_HEAD = Buffer.from('{"results":[');
const COMMA = Buffer.from(',');

/** The detail route's path parameters and query string. */
const DetailParams = Type.Object({ unified_id: Type.String({ minLength: 1, maxLength: 100 }) });
const DetailQuery = Type.Object({ fields: Type.Optional(Fields) }, { additionalProperties: false });

/** A search request read through the parameter table; 400 for a value the table refuses. */
function readSearch(query: Record<string, unknown>, table: readonly ProgramSearchParameter[]): SearchRequest {
  try {
    return readSearchRequest(query, jstDate(), table);
  } catch (err) {
    if (err instanceof ProgramQueryError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
    throw err;
  }
}

/** The page of a (non-export) search, kept whole per catalogue; 400 for a cursor of another query. */
function searchPage(catalog: Catalog, { query, page }: SearchRequest): CachedBody {
  const key = JSON.stringify([query.key, page.limit, page.offset, page.cursor ?? null, page.fields, page.explain, page.facets]);
  try {
    return answersOf(catalog).page(key, () => catalog.programs.page(query, page));
  } catch (err) {
    if (err instanceof CursorError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
    throw err;
  }
}

/** One programme in the asked shape (full detail unless minimal), kept whole per catalogue; 404 for an unknown id. */
function programRecord(catalog: Catalog, unifiedId: string, fields: string | undefined): CachedBody {
  const pid = catalog.programs.pidOf(unifiedId);
  // A detail is the full shape (with source confidence) unless minimal is asked for.
  const view = fields === 'minimal' ? 'minimal' : 'detail';
  const answer =
    pid === undefined
      ? undefined
      : answersOf(catalog)
          .records(view, [pid], (missing) => catalog.programs.json(missing, view))
          .get(pid);
  if (!answer) throw new HttpError(404, `Program not found: ${unifiedId}`);
  return answer;
}

const programRoute = operations(PAGE_DATA_READ, 'programs');

const programsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The search's parameter table (BuildOptions.programSearchParameters; the service's by default).
  const table = app.programSearchParameters;

  // format=csv|jsonl exports every match: one unit per started 100 rows (streamed, so not an answer in process).
  const SEARCH_ROUTE = { ...PAGE_DATA_READ, unitRows: 100 } as const;
  app.get(
    '/search',
    answered(
      operation(
        SEARCH_ROUTE,
        'programs',
        'searchPrograms',
        'Search programs by free text and structured filters',
        {
          querystring: searchQuerySchema(table),
          response: { 200: SearchResponse },
        },
        [400, 401, 402, 429],
      ),
      ({ query }) => {
        const search = readSearch(query as Record<string, unknown>, table);
        // One catalogue for the whole answer: a hot swap (catalog/live.ts) must not mix two files.
        return search.export ? null : searchPage(app.catalog, search);
      },
      (request, reply) => exportPrograms(app, request, reply, readSearch(request.query as Record<string, unknown>, table)),
    ),
  );

  app.post(
    '/match',
    // Metered like a search page: the same engine, one answer.
    answered(
      programRoute(
        'matchPrograms',
        'Programmes for a company profile, ranked, each with why it fits and what to check',
        {
          description:
            'Every field is optional. The profile is read into the search engine of GET /v1/programs/search: the place as `applicable_in` (its own, its prefecture’s and nationwide programmes), the need, purposes and stage as the searched words, the industry, size and stage as the ranking’s fit. A value that cannot be (a municipality of another prefecture, a founding year after next year, a JSIC code that does not exist) is a 400.',
          body: MatchRequest,
          response: { 200: MatchResponse },
        },
        [400, 401, 402, 429],
      ),
      ({ body }) => {
        let match: ReturnType<typeof readMatchRequest>;
        try {
          match = readMatchRequest(body, jstDate());
        } catch (err) {
          if (err instanceof ProgramQueryError) throw new HttpError(400, `Invalid body: ${err.message}`);
          throw err;
        }
        const catalog = app.catalog;
        const key = JSON.stringify([match.query.key, match.page, match.profile.employees, match.profile.capitalManYen, match.profile.purposes]);
        return answersOf(catalog).page(key, () => catalog.programs.match(match));
      },
    ),
  );

  app.post(
    '/batch',
    answered(
      programRoute(
        'batchGetPrograms',
        'Fetch up to 50 programs (full shape) in one call; counts as one request',
        { body: BatchRequest, response: { 200: BatchResponse } },
        [400, 401, 422, 429],
      ),
      ({ body }) => {
        const ids = dedupe(body.unified_ids);
        if (body.unified_ids.length === 0) throw new HttpError(422, 'unified_ids must contain at least 1 id');
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
        return Buffer.concat(parts);
      },
    ),
  );

  app.get(
    '/:unified_id',
    answered(
      programRoute(
        'getProgram',
        'One program by unified_id',
        { params: DetailParams, querystring: DetailQuery, response: { 200: Type.Union([ProgramDetail, ProgramMinimal]) } },
        [400, 401, 404, 429],
      ),
      ({ params, query }) => programRecord(app.catalog, params.unified_id, query.fields),
    ),
  );
};

export default programsRoutes;
