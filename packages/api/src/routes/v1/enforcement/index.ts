// /v1/enforcement: subsidy fraud / over-payment findings and administrative actions.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { Enforcement, EnforcementSearchQuery, EnforcementSearchResponse, IdParams } from '../../../schemas/record-sets.ts';
import { getEnforcement, searchEnforcement } from '../../../catalog/queries/record-sets.ts';
import { dateParam, notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';

const enforcementRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchEnforcement',
      tags: ['enforcement'],
      summary: 'Search enforcement records by free text, authority, decision date, corporate number, family, prefecture',
      querystring: EnforcementSearchQuery,
      response: { 200: EnforcementSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    const { total, rows } = searchEnforcement(app.catalog.db, {
      q: q.q, authority: q.authority, decidedFrom: dateParam('decided_from', q.decided_from),
      decidedTo: dateParam('decided_to', q.decided_to), houjinBangou: q.houjin_bangou, sourceFamily: q.source_family,
      prefecture: q.prefecture, limit, offset,
    });
    return { total, limit, offset, results: rows, attribution: ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getEnforcement',
      tags: ['enforcement'],
      summary: 'One enforcement record by enforcement_id',
      params: IdParams(),
      response: { 200: Enforcement, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getEnforcement(app.catalog.db, request.params.id);
    return row ? { ...row, attribution: ATTRIBUTION } : notFound('Enforcement record', request.params.id);
  });
};

export default enforcementRoutes;
