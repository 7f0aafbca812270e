// X-Request-ID on every response. A sane incoming id (short, printable, no
// spaces) is echoed so callers can correlate; anything else is replaced by a
// fresh one. Fastify's `genReqId` (server.ts options) does the choosing.
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && SANE_ID.test(incoming)) return incoming;
  return randomUUID();
}

export default fp(
  async function requestId(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'request-id' },
);
