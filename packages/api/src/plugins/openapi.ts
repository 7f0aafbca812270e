// The published OpenAPI 3.1 document, generated from the route schemas.
// Admin routes and routes marked `hide` never appear in it. Each operation
// carries its route's declaration (plugins/route-policy.ts): `x-access`,
// `x-counter`, `x-billed` (`x-extra-limit`) and one line of its description.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../config.ts';
import { describePolicy, policyExtensions } from './route-policy.ts';
import { EXPORT_MEDIA_TYPES } from '../schemas/common.ts';
import { SESSION_COOKIE } from '../access/session.ts';
import { OPENAPI_TAGS } from '../schemas/tags.ts';

export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Japanese Public Support Programs API',
          version: SERVER_VERSION,
          description:
            'Read-mostly JSON API over a catalogue of Japanese public support programs (subsidies, grants, loans, ' +
            'certifications, tax rulesets, enforcement records, laws, bids) with exclusion checking. ' +
            'Errors are `{"detail": string}`. Anonymous calls are limited per address; keys go in `X-API-Key` or `Authorization: Bearer`.',
        },
        servers: [{ url: '/' }],
        tags: OPENAPI_TAGS.map((tag) => ({ ...tag })),
        components: {
          securitySchemes: {
            apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            bearer: { type: 'http', scheme: 'bearer' },
            // The developer portal's browser session (POST /v1/session), accepted by the operations marked x-session.
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          },
        },
      },
      hiddenTag: 'internal',
      // Routes declaring `unitRows` also answer format=csv|jsonl: their 200 lists those media types.
      transformObject: (document) => {
        // A copy: the document's schemas may be the very objects the routes validate and serialize with.
        const openapiObject = structuredClone((document as unknown as { openapiObject: { paths?: Record<string, unknown> } }).openapiObject);
        collapseLiteralUnions(openapiObject as unknown as Json);
        for (const item of Object.values(openapiObject.paths ?? {})) {
          for (const op of Object.values(
            item as Record<string, { 'x-unit-rows'?: number; responses?: Record<string, { content?: Record<string, unknown> }> }>,
          )) {
            const ok = op['x-unit-rows'] ? op.responses?.['200'] : undefined;
            if (ok?.content) Object.assign(ok.content, EXPORT_MEDIA_TYPES);
          }
        }
        return openapiObject as never;
      },
      transform: ({ schema, url, route }) => {
        const own = (schema ?? {}) as { hide?: boolean; description?: string };
        const policy = route.config?.policy;
        if (!policy) throw new Error(`${url}: no route policy (plugins/route-policy.ts)`);
        if (own.hide === true || policy.access === 'admin') return { schema: { ...own, hide: true }, url, route };
        const description = [own.description, describePolicy(policy)].filter(Boolean).join('\n\n');
        return { schema: { ...own, description, ...policyExtensions(policy) } as typeof schema, url, route };
      },
    });
  },
  { name: 'openapi' },
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `{type: T, enum: [v]}` (or `{const: v}` with its type): one literal. */
function literal(schema: Json): { type: string; value: Json } | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return null;
  const keys = Object.keys(schema);
  if (typeof schema.type !== 'string') return null;
  if (keys.length === 2 && Array.isArray(schema.enum) && schema.enum.length === 1) return { type: schema.type, value: schema.enum[0] };
  if (keys.length === 2 && 'const' in schema) return { type: schema.type, value: schema.const };
  return null;
}

/**
 * A union of literals of one type (TypeBox writes `Union([Literal('S'), …])`
 * as `anyOf: [{type: string, enum: [S]}, …]`) becomes one `{type, enum}`, as
 * JSON Schema says it shorter and Swagger UI shows it: the values, not
 * `string | string | …`. Every schema of the document, in place.
 */
export function collapseLiteralUnions(node: Json): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collapseLiteralUnions(item);
    return;
  }
  for (const value of Object.values(node)) collapseLiteralUnions(value);
  const members = Array.isArray(node.anyOf) ? node.anyOf.map(literal) : [];
  if (members.length < 2 || members.some((m) => m === null || m.type !== members[0]!.type)) return;
  delete node.anyOf;
  node.type = members[0]!.type;
  node.enum = members.map((m) => m!.value);
}

/** The document as published: stable key order so the committed copy diffs cleanly. */
export function openapiDocument(app: FastifyInstance): Record<string, unknown> {
  return app.swagger() as unknown as Record<string, unknown>;
}
