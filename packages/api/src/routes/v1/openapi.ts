// GET /v1/openapi.json: the published schema (also kept as docs/openapi.json).
import type { FastifyPluginAsync } from 'fastify';
import { openapiDocument } from '../../plugins/openapi.ts';

const openapiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => openapiDocument(app));
};

export default openapiRoutes;
