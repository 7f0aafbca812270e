// /v1/laws/{id}/articles: the article text of the laws this service holds,
// registered under /v1/laws beside the search and detail routes of the laws
// spec (catalog/record-sets/laws.ts). The law is resolved as GET /v1/laws/{id} resolves it.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, Attribution, Limit, Nullable, Offset, errorResponses } from '../../../schemas/common.ts';
import { tableRowSchema } from '../../../schemas/record-sets.ts';
import { getRecord } from '../../../catalog/queries/record-sets.ts';
import { findArticle, listArticles } from '../../../catalog/queries/law-articles.ts';
import lawArticles from '../../../catalog/record-sets/law-articles.ts';
import type { RecordSetSpec } from '../../../catalog/record-sets/spec.ts';
import { RECORD_SET_ROUTE, notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../http/serialization.ts';

const LawArticle = tableRowSchema(lawArticles, 'LawArticle');
const LawArticleDetail = tableRowSchema(lawArticles, 'LawArticleDetail', {
  law_title: Type.String(),
  source_url: Nullable(Type.String({ description: 'e-Gov page of the law' })),
  attribution: Attribution,
});
const ArticlesQuery = Type.Object(
  {
    supplementary: Type.Optional(Type.Boolean({ description: 'true: only 附則 articles; false: only the main provisions' })),
    limit: Type.Optional(Limit(100, 20)),
    offset: Type.Optional(Offset),
  },
  { additionalProperties: false },
);
const ArticlesResponse = Type.Object(
  { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), results: Type.Array(LawArticle), attribution: Attribution },
  { $id: 'LawArticlesResponse' },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

const lawArticlesRoutes: FastifyPluginAsyncTypebox<{ spec: RecordSetSpec }> = async (app, { spec }) => {
  const attribution = spec.attribution ?? ATTRIBUTION;

  app.get(
    '/:id/articles',
    {
      config: RECORD_SET_ROUTE,
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'listLawArticles',
        tags: ['laws'],
        summary: 'Articles of a law in page order (article_key, label, caption, text)',
        params: IdParams,
        querystring: ArticlesQuery,
        response: { 200: ArticlesResponse, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const law = getRecord(app.catalog.db, spec, request.params.id) ?? notFound('Law', request.params.id);
      const { limit, offset } = page(request.query);
      const { total, rows } = law.law_slug
        ? listArticles(app.catalog.db, law.law_slug as string, { limit, offset }, request.query.supplementary)
        : { total: 0, rows: [] };
      return { total, limit, offset, results: rows, attribution };
    },
  );

  app.get(
    '/:id/articles/:art',
    {
      config: RECORD_SET_ROUTE,
      serializerCompiler: jsonSerializer,
      schema: {
        operationId: 'getLawArticle',
        tags: ['laws'],
        summary: 'One article: `12`, `2の3`, `第二条の三`, `附則第一条` / `附則1`, or the article_key as listed (`1_附3`)',
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 200 }),
          art: Type.String({ minLength: 1, maxLength: 100 }),
        }),
        response: { 200: LawArticleDetail, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const { id, art } = request.params;
      const law = getRecord(app.catalog.db, spec, id) ?? notFound('Law', id);
      if (!law.article_text_available) notFound(`Article text of law ${id} (this service holds the text of 79 laws)`, art);
      const article = findArticle(app.catalog.db, law.law_slug as string, art) ?? notFound(`Article of law ${id}`, art);
      return {
        ...article,
        law_id: article.law_id ?? law.law_id,
        law_title: law.title,
        source_url: law.source_url,
        attribution,
      };
    },
  );
};

export default lawArticlesRoutes;
