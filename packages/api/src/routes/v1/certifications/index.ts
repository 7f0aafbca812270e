// /v1/certifications: certification programs (a projection of programs).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { Certification, CertificationSearchQuery, CertificationSearchResponse, IdParams } from '../../../schemas/record-sets.ts';
import { getCertification, searchCertifications } from '../../../catalog/queries/record-sets.ts';
import { notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';

const certificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchCertifications',
      tags: ['certifications'],
      summary: 'Search certification programs by free text, prefecture, authority level, tier',
      querystring: CertificationSearchQuery,
      response: { 200: CertificationSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    const { total, rows } = searchCertifications(app.catalog.db, {
      q: q.q, prefecture: q.prefecture, authorityLevel: q.authority_level, tier: q.tier, limit, offset,
    });
    return { total, limit, offset, results: rows, attribution: ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getCertification',
      tags: ['certifications'],
      summary: 'One certification program by unified_id',
      params: IdParams(),
      response: { 200: Certification, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getCertification(app.catalog.db, request.params.id);
    return row ? { ...row, attribution: ATTRIBUTION } : notFound('Certification', request.params.id);
  });
};

export default certificationsRoutes;
