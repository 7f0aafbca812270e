// /v1/case_studies: SME case studies (中小企業庁 jirei-navi).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { CaseSearchQuery, CaseSearchResponse, CaseStudy, IdParams } from '../../../schemas/record-sets.ts';
import { getCaseStudy, searchCaseStudies } from '../../../catalog/queries/record-sets.ts';
import { notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';
import { HttpError } from '../../../plugins/errors.ts';

const caseStudiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchCaseStudies',
      tags: ['case_studies'],
      summary: 'Search SME case studies by free text, prefecture, industry, corporate number, pattern tag, employees',
      querystring: CaseSearchQuery,
      response: { 200: CaseSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    if (q.employees_min !== undefined && q.employees_max !== undefined && q.employees_min > q.employees_max) {
      throw new HttpError(400, 'Invalid querystring: employees_min must not exceed employees_max');
    }
    const { total, rows } = searchCaseStudies(app.catalog.db, {
      q: q.q, prefecture: q.prefecture, jsicCode: q.jsic_code, industry: q.industry, houjinBangou: q.houjin_bangou,
      patternTag: q.pattern_tag, employeesMin: q.employees_min, employeesMax: q.employees_max, limit, offset,
    });
    return { total, limit, offset, results: rows, attribution: ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getCaseStudy',
      tags: ['case_studies'],
      summary: 'One case study by case_id',
      params: IdParams(),
      response: { 200: CaseStudy, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getCaseStudy(app.catalog.db, request.params.id);
    return row ? { ...row, attribution: ATTRIBUTION } : notFound('Case study', request.params.id);
  });
};

export default caseStudiesRoutes;
