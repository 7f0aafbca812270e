// The calls the MCP tools make, in process. A tool calls the typed client
// (packages/mcp/src/lib/api.ts); the client hands each HTTP exchange to a
// transport. This one answers the programme reads the tools make most
// (GET /v1/programs/search without an export, GET /v1/programs/{id}) from the
// same functions the REST routes answer with (routes/v1/programs/answers.ts),
// with the same validation, limits and usage recording (plugins/limits.ts
// `admitCall`, plugins/usage.ts `recordCall`), but without a second pass
// through Fastify: no second request object, key hash, hook chain or reply.
// Every other call, and any call it would not answer exactly as the route
// does (a value the schema or the parameter table refuses, an unknown id, a
// cursor of another query, an export, a store that cannot be reached),
// goes to the route itself through `inject`, unchanged.
//
// What differs from the route, by design: no request-log line and no HTTP
// metrics of their own (the /mcp request has both; `mcpDirectCalls` counts
// these), and the answer's request id is that of the /mcp request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { injectTransport, type Transport, type TransportRequest, type TransportResponse } from '@jp-support/client';
import { normaliseAddress } from '../access/client-address.ts';
import type { CachedBody } from '../http/answers.ts';
import { JSON_TYPE } from '../http/serialization.ts';
import { queryValidator } from '../http/validation.ts';
import { HttpError } from '../plugins/errors.ts';
import type { CountedCall, RoutePolicy } from '../plugins/route-policy.ts';
import { searchQuerySchema } from '../schemas/programs.ts';
import { DetailQuery, programRecord, readSearch, searchPage } from './v1/programs/answers.ts';

/** Calls answered without `inject` in this process (tests check the direct path is taken). */
export const mcpDirectCalls = { answered: 0 };

const SEARCH_PATH = '/v1/programs/search';
const DETAIL_PATH = /^\/v1\/programs\/([^/]+)$/;
const MAX_ID_LENGTH = 100;

interface DirectRoute {
  /** The route pattern, as usage events and error counts name it. */
  url: string;
  policy: RoutePolicy;
  /** The answer, or null to leave the call to the route (through inject). Throws nothing a route would answer differently. */
  answer(query: Record<string, unknown>, param: string | undefined): CachedBody | null;
}

/** The in-process transport of one /mcp request: direct for the programme reads, inject for the rest. */
export function toolTransport(app: FastifyInstance, request: FastifyRequest): Transport {
  const viaRoute = injectTransport(app, { remoteAddress: normaliseAddress(request.ip) ?? request.ip });
  const routes = directRoutes(app);
  return async (req) => (await direct(app, routes, request, req)) ?? (await viaRoute(req));
}

const built = new WeakMap<FastifyInstance, { search: DirectRoute; detail: DirectRoute }>();

function directRoutes(app: FastifyInstance): { search: DirectRoute; detail: DirectRoute } {
  let routes = built.get(app);
  if (routes) return routes;
  const policy = (key: string): RoutePolicy => {
    const found = app.routePolicies.get(key);
    if (!found) throw new Error(`routes/mcp-calls.ts: no route ${key}`);
    return found;
  };
  const table = app.programSearchParameters;
  const validSearch = queryValidator(searchQuerySchema(table));
  const validDetail = queryValidator(DetailQuery);
  routes = {
    search: {
      url: SEARCH_PATH,
      policy: policy(`GET ${SEARCH_PATH}`),
      answer(query) {
        if (!validSearch(query)) return null;
        const search = leftToRoute(() => readSearch(query, table));
        if (!search || search.export) return null;
        return leftToRoute(() => searchPage(app.catalog, search));
      },
    },
    detail: {
      url: '/v1/programs/:unified_id',
      policy: policy('GET /v1/programs/:unified_id'),
      answer(query, id) {
        if (id === undefined || id.length === 0 || id.length > MAX_ID_LENGTH || !validDetail(query)) return null;
        return leftToRoute(() => programRecord(app.catalog, id, query.fields as string | undefined));
      },
    },
  };
  built.set(app, routes);
  return routes;
}

/** What `answer` gives, or null when it refuses with an HttpError (the route then answers, and counts, that error itself). */
function leftToRoute<T>(answer: () => T): T | null {
  try {
    return answer();
  } catch (err) {
    if (err instanceof HttpError) return null;
    throw err;
  }
}

/** The query string as Fastify hands it to validation: repeated names as arrays. */
function queryObject(params: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of params) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

function routeOf(routes: { search: DirectRoute; detail: DirectRoute }, pathname: string): { route: DirectRoute; param?: string } | null {
  if (pathname === SEARCH_PATH) return { route: routes.search };
  const m = DETAIL_PATH.exec(pathname);
  if (!m || m[1] === 'search' || m[1] === 'batch') return null;
  try {
    return { route: routes.detail, param: decodeURIComponent(m[1]) };
  } catch {
    return null;
  }
}

async function direct(
  app: FastifyInstance,
  routes: { search: DirectRoute; detail: DirectRoute },
  outer: FastifyRequest,
  req: TransportRequest,
): Promise<TransportResponse | null> {
  if (req.method !== 'GET' || req.signal.aborted) return null;
  const url = new URL(req.url);
  const target = routeOf(routes, url.pathname);
  if (!target) return null;
  const answer = target.route.answer(queryObject(url.searchParams), target.param);
  if (!answer) return null;

  // The caller is the /mcp request's: the same key (checked there) or address.
  const call: CountedCall = {
    id: outer.id,
    method: 'GET',
    log: outer.log,
    identity: outer.identity,
    routeOptions: { url: target.route.url, config: { policy: target.route.policy } },
    quota: null,
    units: 0,
    spendReservations: [],
    spendCapYen: null,
  };
  const headers: Record<string, string> = { 'x-request-id': outer.id };
  const sink = { header: (name: string, value: string) => void (headers[name.toLowerCase()] = value) };
  try {
    await app.admitCall(call, sink, 1);
  } catch (err) {
    // Any other error comes from the store before anything was taken or reserved: the route answers it as it would (a 503).
    if (!(err instanceof HttpError)) return null;
    // A refusal (429, 402): its error count, as the route's onSend records it.
    await app.recordCall(call, err.statusCode);
    for (const [name, value] of Object.entries(err.headers)) headers[name.toLowerCase()] = value;
    return { status: err.statusCode, headers: { ...headers, 'content-type': JSON_TYPE }, body: JSON.stringify(err.body) };
  }
  // Committed before the tool sees the answer, as onSend does before the client sees it.
  await app.recordCall(call, 200);
  mcpDirectCalls.answered++;
  return { status: 200, headers: { ...headers, 'content-type': JSON_TYPE, etag: answer.etag }, body: answer.body.toString('utf8') };
}
