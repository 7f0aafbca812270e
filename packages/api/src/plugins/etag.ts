// ETag on successful GET responses, and 304 for a matching If-None-Match.
// Registered before compression so the tag is computed on the identity body:
// the same tag whatever encoding the client accepts (weak, as RFC 9110 wants
// for representations that differ only by content coding). A route that
// answers a cached body sets the tag it cached with it (hash.ts#etagFor over
// the same bytes), and the body is not hashed again.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { etagFor } from '../lib/hash.ts';

export { etagFor };

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
      const preset = reply.getHeader('etag');
      const tag = typeof preset === 'string' ? preset : etagFor(payload);
      if (preset === undefined) reply.header('etag', tag);
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
