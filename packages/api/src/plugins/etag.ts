// ETag on successful GET responses, and 304 for a matching If-None-Match.
// Registered before compression so the tag is computed on the identity body:
// the same tag whatever encoding the client accepts (weak, as RFC 9110 wants
// for representations that differ only by content coding).
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export function etagFor(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string, tag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const bare = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

export default fp(
  async function etag(app: FastifyInstance) {
    app.addHook('onSend', async (request, reply, payload) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const tag = etagFor(payload);
      reply.header('etag', tag);
      const ifNoneMatch = request.headers['if-none-match'];
      if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, tag)) {
        reply.code(304);
        reply.removeHeader('content-length');
        return '';
      }
      return payload;
    });
  },
  { name: 'etag' },
);
