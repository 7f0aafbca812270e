// What the options of a documented route are made of, written once: its
// declaration (who may call it and what it costs, plugins/route-policy.ts),
// its tag, operation id and summary, the request parts of its schema, its
// answers and the error answers besides them. The declarations that several
// groups of routes share are named here too. A group of routes with one
// declaration and one tag takes a maker:
//
//   const alerts = operations(KEY_ROUTE, 'alerts');
//   app.get('/me/webhooks', alerts('listWebhooks', 'The webhook endpoints…', { response: { 200: WebhookList } }, [401]), handler);
//
// Routes stay Fastify shorthand, so handlers keep the types the schema gives
// them (docs/decisions/0322-route-options-from-helpers.md).
//
// A route whose answer is a function of its validated request declares it
// with `answered`: the function is its handler's answer and the answer of a
// call made in process (plugins/in-process.ts: the MCP tools' calls), so both
// reach the engine through the same code, once:
//
//   app.get('/:id', answered(loans('getLoan', 'One loan', { params, response }, [404]), ({ params }) => getLoan(params.id)));
import type { Static, TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../schemas/common.ts';
import { jsonSerializer, sendAnswer } from '../http/serialization.ts';
import type { RouteDeclaration } from '../plugins/route-policy.ts';
import type { Answer, InProcessAnswer } from '../plugins/in-process.ts';

/** Data anyone may read: counted against the daily allowance, one billed unit for a paid key. */
export const DATA_READ = { access: 'public', counter: 'daily', billed: true } as const satisfies RouteDeclaration;
/** A data read the portal's pages call too (their session stands in for a key: route-policy.ts `session`). */
export const PAGE_DATA_READ = { ...DATA_READ, session: 'pages' } as const satisfies RouteDeclaration;
/** What the presented key owns (its webhooks, its saved searches): a key is required. */
export const KEY_ROUTE = { access: 'key' } as const satisfies RouteDeclaration;
/** The presented key's account, also read by the portal's account page with its session. */
export const ACCOUNT_ROUTE = { access: 'key', session: true } as const satisfies RouteDeclaration;

/** The request parts and answers of one operation; `response` holds the answers besides the errors. */
export interface OperationSchema {
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  response: Record<number, unknown>;
}

/**
 * The route options of one operation: declaration, and the schema with its
 * operation id, tag, summary, request parts, answers and error answers
 * (`errors`: their statuses, each answered with the `{detail}` body).
 */
export function operation<const S extends OperationSchema>(
  config: RouteDeclaration,
  tag: string,
  operationId: string,
  summary: string,
  schema: S,
  errors: readonly number[],
) {
  const { response, ...request } = schema;
  return {
    config,
    schema: {
      operationId,
      tags: [tag],
      summary,
      ...(request as Omit<S, 'response'>),
      // Typed as the answers alone: handlers throw their errors (plugins/errors.ts), they never return them.
      response: { ...response, ...errorResponses(...errors) } as S['response'],
    },
  };
}

/** The maker of a group's operations: routes with one declaration and one tag. */
export function operations(config: RouteDeclaration, tag: string) {
  return <const S extends OperationSchema>(operationId: string, summary: string, schema: S, errors: readonly number[]) =>
    operation(config, tag, operationId, summary, schema, errors);
}

type Part<S, K extends string> = S extends { [P in K]: infer T extends TSchema } ? Static<T> : undefined;

/** The validated parts of a request, typed from the route's schema. */
export interface RequestParts<S> {
  params: Part<S, 'params'>;
  query: Part<S, 'querystring'>;
  body: Part<S, 'body'>;
}

/**
 * Route options with the route's answer as a function of its validated
 * request (see plugins/in-process.ts `Answer`): its handler sends what
 * `answer` gives, JSON-serialised, and calls in process take the same. When
 * `answer` gives null, the handler answers with `otherwise` (an export that
 * streams, say); a call in process goes to the route then.
 */
export function answered<const O extends { config: RouteDeclaration; schema: object }>(
  options: O,
  answer: (request: RequestParts<O['schema']>) => Answer,
  otherwise?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  return {
    ...handled(options, answer, otherwise),
    serializerCompiler: jsonSerializer,
    config: { ...options.config, answer: answer as InProcessAnswer },
  };
}

/**
 * The same handler without an answer in process, for a route whose answer is
 * serialised by its response schema (unknown keys dropped), which a call in
 * process, taking JSON.stringify's text, would not do.
 */
export function handled<const O extends { config: RouteDeclaration; schema: object }>(
  options: O,
  answer: (request: RequestParts<O['schema']>) => Answer,
  otherwise?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const given = answer(request as unknown as RequestParts<O['schema']>);
    if (given !== null) return sendAnswer(reply, given);
    if (!otherwise) throw new Error(`${request.routeOptions.url}: the answer gave null and the route has no other`);
    return otherwise(request, reply);
  };
  // Typed as answering nothing of its own: what it sends was typed by `answer` (the schema documents it, response-shapes.test.ts checks it).
  return { ...options, handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<never> };
}
