// What every /v1/am route shares, written once: its declaration (open to
// anyone, counted daily, one billed unit for a paid key), plain JSON
// serialisation (rows are free-form objects), the `am` tag, the error
// answers besides 200, a query that takes no unknown parameter, paging, and
// an answer that the MCP tools' calls take in process. routes/v1/am/index.ts
// is then one call per tool: its options and its answer.
import { Type, type TProperties, type TSchema } from 'typebox';
import { AmLimit, AmOffset } from '../../../schemas/am.ts';
import type { Answer } from '../../../plugins/in-process.ts';
import type { RouteDeclaration } from '../../../plugins/route-policy.ts';
import { DATA_READ, answered, operation, type RequestParts } from '../../operation.ts';

/** Every /v1/am route: open to anyone, counted against the daily allowance, one billed unit for a paid key. */
export const AM_ROUTE: RouteDeclaration = DATA_READ;

/** The request parts a tool's schema declares (TypeBox); `response` is its 200 answer. */
interface ToolSchema {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: TSchema;
}

/**
 * The route options of one /v1/am tool, with its answer: declaration,
 * serializer, the schema with its operation id, tag, summary and error
 * answers (`errors`, default 400, 401, 429), and the handler that sends what
 * `answer` gives for the validated request (answered in process for the MCP
 * tools too, routes/operation.ts `answered`).
 */
export function amTool<const S extends ToolSchema>(
  operationId: string,
  summary: string,
  schema: S,
  answer: (request: RequestParts<S>) => Answer,
  errors: readonly number[] = [400, 401, 429],
) {
  const { response, ...request } = schema;
  // `answer` reads the request parts typed from S; TypeScript cannot see through operation()'s generic schema that they are the same.
  return answered(operation(AM_ROUTE, 'am', operationId, summary, { ...request, response: { 200: response } }, errors), answer as never);
}

/** A tool's query parameters: these and no others (an unknown one answers 400). */
export const amQuery = <const T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });

/** The page parameters of a listing: `limit` (default `limit`, 1–100) and `offset`. */
export const paging = (limit: number) => ({ limit: Type.Optional(AmLimit(limit)), offset: Type.Optional(AmOffset) });

/** A query whose `limit` (and `offset`, where the tool has one) are set. */
type Paged<Q> = Q & { limit: number } & ('offset' extends keyof Q ? { offset: number } : unknown);

/**
 * The query with its page filled in. The schema's defaults (`default` of
 * AmLimit and AmOffset) are applied by the validator (http/validation.ts,
 * useDefaults), so an absent `limit` or `offset` is already its default here.
 */
export const paged = <Q extends { limit?: number }>(query: Q) => query as Paged<Q>;
