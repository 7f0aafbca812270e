// /v1/tax_rulesets: tax rulesets (invoice system, e-bookkeeping, SME tax incentives).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { IdParams, TaxRuleset, TaxSearchQuery, TaxSearchResponse } from '../../../schemas/record-sets.ts';
import { getTaxRuleset, searchTaxRulesets } from '../../../catalog/queries/record-sets.ts';
import { dateParam, notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';

const taxRulesetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchTaxRulesets',
      tags: ['tax_rulesets'],
      summary: 'Search tax rulesets by free text, date in force, category and kind',
      querystring: TaxSearchQuery,
      response: { 200: TaxSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    const { total, rows } = searchTaxRulesets(app.catalog.db, {
      q: q.q, effectiveOn: dateParam('effective_on', q.effective_on), taxCategory: q.tax_category, rulesetKind: q.ruleset_kind,
      limit, offset,
    });
    return { total, limit, offset, results: rows, attribution: ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getTaxRuleset',
      tags: ['tax_rulesets'],
      summary: 'One tax ruleset by unified_id (TAX-…)',
      params: IdParams(),
      response: { 200: TaxRuleset, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getTaxRuleset(app.catalog.db, request.params.id);
    return row ? { ...row, attribution: ATTRIBUTION } : notFound('Tax ruleset', request.params.id);
  });
};

export default taxRulesetsRoutes;
