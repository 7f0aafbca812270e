// One JSON log line per request (docs/decisions/0070-request-log-line.md): id, method, route, URL path,
// status and duration. Never the client address, never a key: keys are not
// read from the query string, but callers put them there anyway
// (`?api_key=am_…`), so key-shaped values and credential-named parameters
// are redacted from the logged URL (logger.ts).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../http/logger.ts';

export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', async (request, reply) => {
      const level = reply.statusCode >= 500 ? 'error' : 'info';
      request.log[level](
        {
          method: request.method,
          url: redactUrl(request.url).slice(0, 500),
          route: request.routeOptions.url ?? null,
          statusCode: reply.statusCode,
          responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    });
  },
  { name: 'request-log' },
);
