// /v1/loans: loans and mutual-aid plans, with the three risk axes
// (collateral, personal guarantor, third-party guarantor).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { IdParams, Loan, LoanSearchQuery, LoanSearchResponse } from '../../../schemas/record-sets.ts';
import { getLoan, searchLoans } from '../../../catalog/queries/record-sets.ts';
import { notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';

const loansRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchLoans',
      tags: ['loans'],
      summary: 'Search loans and mutual-aid plans by free text, plan type and risk axes',
      querystring: LoanSearchQuery,
      response: { 200: LoanSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    const { total, rows } = searchLoans(app.catalog.db, {
      q: q.q, planType: q.plan_type, prefecture: q.prefecture, limit, offset,
      risk: { collateral: q.collateral, personal_guarantor: q.personal_guarantor, third_party_guarantor: q.third_party_guarantor },
    });
    return { total, limit, offset, results: rows, attribution: ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getLoan',
      tags: ['loans'],
      summary: 'One loan or mutual-aid plan by id (unified_id, or loan_id of a JFC product)',
      params: IdParams(),
      response: { 200: Loan, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getLoan(app.catalog.db, request.params.id);
    return row ? { ...row, attribution: ATTRIBUTION } : notFound('Loan', request.params.id);
  });
};

export default loansRoutes;
