// GET /v1/attribution: the licence attribution block that rides on catalogue responses.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Attribution, ATTRIBUTION } from '../../schemas/common.ts';

const attributionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/attribution',
    {
      config: { access: 'public' },
      schema: { operationId: 'getAttribution', tags: ['meta'], summary: 'Data licence attribution', response: { 200: Attribution } },
    },
    async () => ATTRIBUTION,
  );
};

export default attributionRoutes;
