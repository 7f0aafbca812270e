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
        const openapiObject = (document as unknown as { openapiObject: { paths?: Record<string, unknown> } }).openapiObject;
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

/** The document as published: stable key order so the committed copy diffs cleanly. */
export function openapiDocument(app: FastifyInstance): Record<string, unknown> {
  return app.swagger() as unknown as Record<string, unknown>;
}
