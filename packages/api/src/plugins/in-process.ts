// Routes answered in process: a route may declare its answer as a function of
// its validated request (routes/operation.ts `answered`), which its Fastify
// handler sends. A call made inside this process without a request of its own
// (the MCP tools' calls at /mcp, routes/mcp-calls.ts) is then answered by the
// same function, with what the hooks do for that route done here through the
// same code: its schema's validators (http/validation.ts), its declaration's
// limits (`app.admitCall`, plugins/limits.ts) and usage (`app.recordCall`,
// plugins/usage.ts). No second request, reply, key hash or hook chain.
//
// `app.callInProcess` answers null whenever the route could answer anything
// else than its declared answer: no such route, a route without one, a
// request its schema or its answer refuses (the answer throws an HttpError or
// gives null: an export, an unknown id, a cursor of another query), a body
// that is not plain JSON within the body limit, a store that cannot be
// reached. The caller then sends the request to the route itself, which stays
// the authority on every error and counts it.
//
// Which route a path is: a router with Fastify's own router (find-my-way) and
// options (ROUTER_OPTIONS, app.ts) holds every route's pattern, so a path
// matches here the route it matches there.
//
// What differs from the route, by design: no request-log line and no HTTP
// metrics of their own (the outer request has both; `inProcessCalls` counts
// these), and the answer's request id is the outer request's.
import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { CachedBody, JSON_TYPE } from '../http/serialization.ts';
import { validatorCompiler } from '../http/validation.ts';
import { HttpError } from './errors.ts';
import { MAX_JSON_DEPTH, jsonDeeperThan } from './json-body.ts';
import type { CountedCall, RoutePolicy } from './route-policy.ts';

/** Fastify's router options (app.ts serverOptions), shared with the router here so both match a path alike. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: true, maxParamLength: 500 } as const;

/**
 * What a route's answer gives: JSON kept whole with its ETag (http/answers.ts),
 * JSON text as UTF-8 bytes, or a value the route serialises with
 * JSON.stringify; null when this request is answered otherwise (an export:
 * the handler's other path; for a call in process, the route itself).
 * Synchronous: it reads the catalogue it was given and returns.
 */
export type Answer = CachedBody | Buffer | object | null;

/** The validated parts of a request, as the answer reads them. */
export interface RequestParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

export type InProcessAnswer = (request: RequestParts) => Answer;

/** One call made in process: what the transport carries of an HTTP exchange. */
export interface InProcessRequest {
  method: string;
  /** The URL's path, percent-encoded as sent. */
  path: string;
  query: URLSearchParams;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Serialised JSON body, or undefined. */
  body?: string;
}

export interface InProcessResponse {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer, set by routes/operation.ts `answered`. */
    answer?: InProcessAnswer;
  }
  interface FastifyInstance {
    /**
     * Answer a call made in process as `caller` (its identity: the key it
     * presented, checked there, or its address) through the route's declared
     * answer, validated, limited and recorded as the route is; null when the
     * route must answer it itself (see plugins/in-process.ts).
     */
    callInProcess(caller: FastifyRequest, request: InProcessRequest): Promise<InProcessResponse | null>;
  }
}

/** Calls answered in process (tests check that this path is taken). */
export const inProcessCalls = { answered: 0 };

type Validate = (value: unknown) => boolean;

interface AnsweredRoute {
  /** The route pattern, as usage events and error counts name it. */
  url: string;
  policy: RoutePolicy;
  answer: InProcessAnswer;
  schema: { params?: unknown; querystring?: unknown; body?: unknown };
  /** The route's validators, compiled on the first call in process. */
  validators?: { params: Validate; query: Validate; body: Validate };
}

const ALWAYS: Validate = () => true;

/**
 * Route-level hooks that could decide or change an answer, which a call in
 * process would not run. (The route-level onRequest, preParsing and onSend
 * hooks every route has are the compression plugin's: content coding, a
 * concern of the socket.)
 */
const HOOKS = ['preValidation', 'preHandler', 'preSerialization'] as const;

function compile(schema: unknown, httpPart: 'params' | 'querystring' | 'body'): Validate {
  if (schema === undefined) return ALWAYS;
  const validate = validatorCompiler({ schema: schema as object, httpPart, method: 'GET', url: '' }) as (value: unknown) => unknown;
  return (value) => validate(value) === true;
}

/**
 * Why a route that declares an answer cannot be answered in process, or null.
 * callInProcess does of the hooks only what every public route needs: the
 * caller's identity, the daily counter, usage. A key check, an extra limit,
 * JSON-RPC units, constraints, a headers schema or hooks of the route's own
 * would be skipped, so such a route is refused at start.
 */
export function refusal(route: Pick<RouteOptions, 'constraints' | 'schema' | (typeof HOOKS)[number]>, policy: RoutePolicy): string | null {
  if (policy.access !== 'public') return `with access '${policy.access}'`;
  if (policy.extraLimit !== null) return `with an extra limit (${policy.extraLimit})`;
  if (policy.units !== 'request') return `counted per ${policy.units}`;
  if (route.constraints) return 'with constraints';
  if ((route.schema as { headers?: unknown } | undefined)?.headers) return 'with a headers schema';
  const own = HOOKS.filter((hook) => route[hook] !== undefined && (!Array.isArray(route[hook]) || route[hook].length > 0));
  return own.length ? `with hooks of its own (${own.join(', ')})` : null;
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

/**
 * A JSON body as the route's parser would read it, or null for one it might
 * read otherwise or refuse: another content type, over the body limit, nested
 * too deep, or naming `__proto__` or `constructor` (the parser's
 * prototype-poisoning checks decide those).
 */
function parsedBody(request: InProcessRequest, bodyLimit: number): { value: unknown } | null {
  if (request.body === undefined) return { value: undefined };
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return null;
  const text = request.body;
  if (Buffer.byteLength(text) > bodyLimit || jsonDeeperThan(text, MAX_JSON_DEPTH) || /__proto__|constructor/.test(text)) return null;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

/** The answer's text and ETag, as the route sends it. */
function answerText(answer: CachedBody | Buffer | object): { body: string; etag?: string } {
  if (answer instanceof CachedBody) return { body: answer.body.toString('utf8'), etag: answer.etag };
  if (Buffer.isBuffer(answer)) return { body: answer.toString('utf8') };
  return { body: JSON.stringify(answer) };
}

export default fp(
  async function inProcess(app: FastifyInstance) {
    // Every route, answered or not: a path matches here the route it matches in Fastify's router.
    const router = FindMyWay(ROUTER_OPTIONS);
    app.addHook('onRoute', (route) => {
      const config = route.config;
      const answered: AnsweredRoute | null =
        config?.answer && config.policy
          ? { url: route.url, policy: config.policy, answer: config.answer, schema: (route.schema ?? {}) as AnsweredRoute['schema'] }
          : null;
      const refused = answered && refusal(route, answered.policy);
      if (refused) throw new Error(`Route ${route.url}: no answer in process for a route ${refused} (plugins/in-process.ts)`);
      for (const method of [route.method].flat()) {
        // Fastify adds a HEAD route beside each GET with the same config: only the GET answers.
        router.on(method as FindMyWay.HTTPMethod, route.url, () => undefined, method === 'HEAD' ? null : answered);
      }
    });

    const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;

    app.decorate('callInProcess', async (caller: FastifyRequest, request: InProcessRequest): Promise<InProcessResponse | null> => {
      const found = router.find(request.method as FindMyWay.HTTPMethod, request.path);
      const route = found?.store as AnsweredRoute | null | undefined;
      if (!found || !route) return null;
      route.validators ??= {
        params: compile(route.schema.params, 'params'),
        query: compile(route.schema.querystring, 'querystring'),
        body: compile(route.schema.body, 'body'),
      };
      const body = parsedBody(request, bodyLimit);
      const params: Record<string, unknown> = { ...found.params };
      const query = queryObject(request.query);
      if (!body || !route.validators.params(params) || !route.validators.body(body.value) || !route.validators.query(query)) return null;
      let answer: Answer;
      try {
        answer = route.answer({ params, query, body: body.value });
      } catch {
        // The route answers it (a 4xx it refuses with, or a 500 it logs), and counts it.
        return null;
      }
      if (answer === null) return null;

      // The caller's identity: the same key (checked on the outer request) or address.
      const call: CountedCall = {
        id: caller.id,
        method: request.method,
        log: caller.log,
        identity: caller.identity,
        routeOptions: { url: route.url, config: { policy: route.policy } },
        quota: null,
        units: 0,
        spendReservations: [],
        spendCapYen: null,
      };
      const headers: Record<string, string> = { 'x-request-id': caller.id };
      const sink = { header: (name: string, value: string) => void (headers[name.toLowerCase()] = value) };
      if (route.policy.counter === 'daily') {
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
      }
      // Committed before the caller sees the answer, as onSend does before a client sees one.
      await app.recordCall(call, 200);
      inProcessCalls.answered++;
      const text = answerText(answer);
      return { status: 200, headers: { ...headers, 'content-type': JSON_TYPE, ...(text.etag ? { etag: text.etag } : {}) }, body: text.body };
    });
  },
  { name: 'in-process', dependencies: ['route-policy', 'limits', 'usage'] },
);
