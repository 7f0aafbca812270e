// /v1/me/saved_searches: a key's saved program searches (the parameters of
// GET /v1/programs/search). Each new dataset version evaluates every saved
// search against the programmes it created or amended (changes/fan-out.ts);
// the matches are listed here and sent by webhook (saved_search.matched) and
// e-mail digest (POST /v1/subscribers). Key required; never counted.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParam, SavedSearch, SavedSearchDetail, SavedSearchList, savedSearchCreateSchema } from '../../../schemas/alerts.ts';
import { callerKey } from '../../../plugins/auth.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { ProgramQueryError, readProgramQuery, type ProgramQuery } from '../../../catalog/programs/query.ts';
import type { ProgramSearchParameter } from '../../../catalog/programs/parameters.ts';
import { jstDate } from '../../../lib/time.ts';
import type { SavedSearch as SavedSearchRecord } from '../../../state/repositories/saved-searches.ts';
import { KEY_ROUTE, operations } from '../../operation.ts';

const alertsOperation = operations(KEY_ROUTE, 'alerts');

export const SAVED_SEARCHES_PER_KEY = 50;

export function savedSearchOut(s: SavedSearchRecord) {
  return { id: s.id, name: s.name, query: s.query, created_at: s.createdAt, match_count: s.matchCount, last_matched_at: s.lastMatchedAt };
}

/** A search's parameters read the way the search reads them (400 for a value it refuses; `where` names its place). */
export function checkedQuery(
  params: Readonly<Record<string, unknown>>,
  table: readonly ProgramSearchParameter[],
  where = 'Invalid body: query.',
): ProgramQuery {
  try {
    return readProgramQuery(params, jstDate(), table);
  } catch (err) {
    if (err instanceof ProgramQueryError) throw new HttpError(400, `${where}${err.message}`);
    throw err;
  }
}

const notFound = (id: string): never => {
  throw new HttpError(404, `Saved search not found: ${id}`);
};

const savedSearchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/me/saved_searches',
    alertsOperation(
      'createSavedSearch',
      'Save a program search; each new dataset version notifies its new and amended matches',
      { body: savedSearchCreateSchema(app.programSearchParameters), response: { 201: SavedSearch } },
      [400, 401, 409],
    ),
    async (request, reply) => {
      const { key } = callerKey(request);
      const saved = await app.state.savedSearches.create(
        { keyId: key.id, name: request.body.name, query: { ...checkedQuery(request.body.query, app.programSearchParameters).params } },
        SAVED_SEARCHES_PER_KEY,
      );
      if (!saved) throw new HttpError(409, `A key keeps at most ${SAVED_SEARCHES_PER_KEY} saved searches; delete one first.`);
      reply.code(201);
      return savedSearchOut(saved);
    },
  );

  app.get(
    '/me/saved_searches',
    alertsOperation('listSavedSearches', 'The saved searches of the presented key', { response: { 200: SavedSearchList } }, [401]),
    async (request) => ({ results: (await app.state.savedSearches.listForKey(callerKey(request).key.id)).map(savedSearchOut) }),
  );

  app.get(
    '/me/saved_searches/:id',
    alertsOperation('getSavedSearch', 'One saved search with its newest matches', { params: IdParam, response: { 200: SavedSearchDetail } }, [401, 404]),
    async (request) => {
      const saved = (await app.state.savedSearches.get(request.params.id, callerKey(request).key.id)) ?? notFound(request.params.id);
      const matches = await app.state.savedSearches.recentMatches(saved.id, 50);
      return {
        ...savedSearchOut(saved),
        recent_matches: matches.map((m) => ({
          event_id: `chg_${m.seq}`,
          type: m.type,
          unified_id: m.unifiedId,
          primary_name: m.primaryName,
          version: m.version,
          matched_at: m.createdAt,
        })),
      };
    },
  );

  app.delete(
    '/me/saved_searches/:id',
    alertsOperation(
      'deleteSavedSearch',
      'Delete a saved search (its matches and e-mail subscriptions go with it)',
      { params: IdParam, response: { 204: { type: 'null', description: 'Deleted' } } },
      [401, 404],
    ),
    async (request, reply) => {
      if (!(await app.state.savedSearches.delete(request.params.id, callerKey(request).key.id))) notFound(request.params.id);
      reply.code(204);
      return null;
    },
  );
};

export default savedSearchRoutes;
