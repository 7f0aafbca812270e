// /v1/laws: laws and regulations (metadata of 9,299 laws) and the article
// text of the laws this service holds. Every response carries the e-Gov
// attribution (CC BY 4.0).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import {
  ArticlesQuery, ArticlesResponse, EGOV_ATTRIBUTION, IdParams, LawArticleDetail, LawDetail, LawSearchQuery, LawSearchResponse,
} from '../../../schemas/record-sets.ts';
import { findArticle, getLaw, listArticles, searchLaws } from '../../../catalog/queries/record-sets.ts';
import { notFound, page } from '../record-set-helpers.ts';
import { jsonSerializer } from '../../../serialization.ts';

const lawsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'searchLaws',
      tags: ['laws'],
      summary: 'Search laws by title or law number, status, ministry and category',
      querystring: LawSearchQuery,
      response: { 200: LawSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    const { total, rows } = searchLaws(app.catalog.db, {
      q: q.q, status: q.status, ministryCode: q.ministry_code, category: q.category, limit, offset,
    });
    return { total, limit, offset, results: rows, attribution: EGOV_ATTRIBUTION };
  });

  app.get('/:id', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'getLaw',
      tags: ['laws'],
      summary: 'One law by LAW-… id or law_slug, with its article count',
      params: IdParams(),
      response: { 200: LawDetail, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const law = getLaw(app.catalog.db, request.params.id);
    return law ? { ...law, attribution: EGOV_ATTRIBUTION } : notFound('Law', request.params.id);
  });

  app.get('/:id/articles', {
    config: { access: 'public', counter: 'daily', billed: true },
    serializerCompiler: jsonSerializer,
    schema: {
      operationId: 'listLawArticles',
      tags: ['laws'],
      summary: 'Articles of a law in page order (article_key, label, caption, text)',
      params: IdParams(),
      querystring: ArticlesQuery,
      response: { 200: ArticlesResponse, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const law = getLaw(app.catalog.db, request.params.id);
    if (!law) notFound('Law', request.params.id);
    const { limit, offset } = page(request.query);
    const { total, rows } = law.law_slug
      ? listArticles(app.catalog.db, law.law_slug as string, { limit, offset }, request.query.supplementary)
      : { total: 0, rows: [] };
    return { total, limit, offset, results: rows, attribution: EGOV_ATTRIBUTION };
  });

  app.get('/:id/articles/:art', {
    config: { access: 'public', counter: 'daily', billed: true },
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
  }, async (request) => {
    const { id, art } = request.params;
    const law = getLaw(app.catalog.db, id);
    if (!law) notFound('Law', id);
    if (!law.article_text_available) notFound(`Article text of law ${id} (this service holds the text of 79 laws)`, art);
    const article = findArticle(app.catalog.db, law.law_slug as string, art);
    if (!article) notFound(`Article of law ${id}`, art);
    return {
      ...article,
      law_id: article.law_id ?? law.law_id,
      law_title: law.title,
      source_url: law.source_url,
      attribution: EGOV_ATTRIBUTION,
    };
  });
};

export default lawsRoutes;
