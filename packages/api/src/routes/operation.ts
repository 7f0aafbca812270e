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
import type { TSchema } from 'typebox';
import { errorResponses } from '../schemas/common.ts';
import type { RouteDeclaration } from '../plugins/route-policy.ts';

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
