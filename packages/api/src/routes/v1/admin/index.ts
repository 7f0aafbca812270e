// Operator views under /v1/admin/* (not in the published document): request
// funnel by day and tier, key cohorts, errors by route. Declared
// `access: 'admin'`: the auth hook wants ADMIN_API_KEY in `X-Admin-Key` or
// `Authorization: Bearer` (unset -> 404, wrong -> 403).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const common = { tags: ['admin'], hide: true };

  app.get(
    '/funnel',
    {
      config: { access: 'admin' },
      schema: {
        ...common,
        operationId: 'adminFunnel',
        summary: 'Requests per Japan-time day and tier',
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 14 }) }),
      },
    },
    async (request) => ({ days: request.query.days, rows: await app.state.analytics.funnel(request.query.days) }),
  );

  app.get(
    '/cohorts',
    {
      config: { access: 'admin' },
      schema: { ...common, operationId: 'adminCohorts', summary: 'Keys by creation month and how many were used in the last 30 days' },
    },
    async () => ({ rows: await app.state.analytics.cohorts() }),
  );

  app.get(
    '/errors',
    {
      config: { access: 'admin' },
      schema: {
        ...common,
        operationId: 'adminErrors',
        summary: '4xx/5xx answers by route pattern',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) }),
      },
    },
    async (request) => ({
      rows: (await app.state.analytics.errors(request.query.limit)).map((r) => ({ route: r.route, status: r.status, count: r.count, last_at: r.lastAt })),
    }),
  );
};

export default adminRoutes;
