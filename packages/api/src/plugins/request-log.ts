// One JSON log line per request (DESIGN.md): id, method, route, URL path,
// status and duration. Never the client address, never a key or a query's
// header values; the query string is kept because keys never travel in it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export default fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', async (request, reply) => {
      const level = reply.statusCode >= 500 ? 'error' : 'info';
      request.log[level](
        {
          method: request.method,
          url: request.url.slice(0, 500),
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
