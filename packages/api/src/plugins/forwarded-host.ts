// X-Forwarded-Host is believed only when the operator says so
// (TRUST_FORWARDED_HOST): with TRUST_PROXY set, Fastify would otherwise let
// any trusted hop, or a client behind a permissive proxy, choose
// `request.host`. Links the service hands out come from PUBLIC_BASE_URL.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export default fp(
  async function forwardedHost(app: FastifyInstance) {
    if (app.config.trustForwardedHost) return;
    app.addHook('onRequest', async (request) => {
      delete request.headers['x-forwarded-host'];
    });
  },
  { name: 'forwarded-host' },
);
