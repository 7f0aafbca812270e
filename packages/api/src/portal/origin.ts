// The origin the browser used (scheme and host, as Fastify reads them,
// `X-Forwarded-*` included behind a trusted proxy), for the examples a page
// shows. Host comes from the request: it is escaped wherever it is written.
import type { FastifyRequest } from 'fastify';

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
