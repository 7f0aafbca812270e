// The published OpenAPI 3.1 document, generated from the route schemas.
// Admin routes (/v1/admin/*) and routes marked `hide` never appear in it.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../config.ts';

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
          },
        },
      },
      hiddenTag: 'internal',
      transform: ({ schema, url, route }) => {
        const hidden = url.startsWith('/v1/admin') || url === '/mcp' || (schema as { hide?: boolean } | undefined)?.hide === true;
        return { schema: hidden ? { ...(schema ?? {}), hide: true } : schema, url, route };
      },
    });
  },
  { name: 'openapi' },
);

/** The document as published: stable key order so the committed copy diffs cleanly. */
export function openapiDocument(app: FastifyInstance): Record<string, unknown> {
  return app.swagger() as unknown as Record<string, unknown>;
}
