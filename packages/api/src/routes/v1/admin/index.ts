// Operator views under /v1/admin/* (not in the published document): request
// funnel by day and tier, key cohorts, errors by route. ADMIN_API_KEY in
// `X-Admin-Key` or `Authorization: Bearer`; unset -> 404, wrong -> 403.
import { Type } from 'typebox';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError } from '../../../plugins/errors.ts';

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const configured = app.config.adminApiKey;
  app.addHook('onRequest', async (request) => {
    if (!configured) throw new HttpError(404, `Not found: ${request.method} ${request.url.split('?')[0].slice(0, 200)}`);
    const header = request.headers['x-admin-key'];
    const direct = Array.isArray(header) ? header[0] : header;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const presented = direct ?? bearer;
    if (!presented || !timingSafeEqual(sha256(presented), sha256(configured))) {
      throw new HttpError(403, 'Admin key required');
    }
  });

  const common = { tags: ['admin'], hide: true };

  app.get('/funnel', {
    schema: {
      ...common,
      operationId: 'adminFunnel',
      summary: 'Requests per Japan-time day and tier',
      querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 14 }) }),
    },
  }, async (request) => ({ days: request.query.days, rows: await app.state.adminFunnel(request.query.days) }));

  app.get('/cohorts', {
    schema: { ...common, operationId: 'adminCohorts', summary: 'Keys by creation month and how many were used in the last 30 days' },
  }, async () => ({ rows: await app.state.adminCohorts() }));

  app.get('/errors', {
    schema: {
      ...common,
      operationId: 'adminErrors',
      summary: '4xx/5xx answers by route pattern',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) }),
    },
  }, async (request) => ({
    rows: (await app.state.adminErrors(request.query.limit)).map((r) => ({ route: r.route, status: r.status, count: r.count, last_at: r.lastAt })),
  }));
};

export default adminRoutes;
