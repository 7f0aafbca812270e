// /v1/laws/{id}/articles: the article text of the laws this service holds,
// and /v1/laws/{id}/revisions: the revisions of a law the e-Gov sync keeps
// (sources/egov/sync.ts), whose text answers `effective_on=` on the article
// route — registered under /v1/laws beside the search and detail routes of
// the laws spec (catalog/record-sets/laws.ts). The law is resolved as GET
// /v1/laws/{id} resolves it.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ATTRIBUTION, Attribution, Limit, Nullable, Offset } from '../../../schemas/common.ts';
import { tableRowSchema } from '../../../schemas/record-sets.ts';
import { getRecord } from '../../../catalog/queries/record-sets.ts';
import { findArticle, findRevisionArticle, listArticles, listRevisions, revisionInForce } from '../../../catalog/queries/law-articles.ts';
import { DateParam, isRealDate } from '../../../catalog/record-sets/params.ts';
import { HttpError } from '../../../plugins/errors.ts';
import lawArticles from '../../../catalog/record-sets/law-articles.ts';
import type { RecordSetSpec } from '../../../catalog/record-sets/spec.ts';
import { RECORD_SET_ROUTE, notFound, page } from '../record-set-helpers.ts';
import { answered, operations } from '../../operation.ts';

const lawsOperation = operations(RECORD_SET_ROUTE, 'laws');

const LawArticle = tableRowSchema(lawArticles, 'LawArticle');
const LawRevision = Type.Object(
  {
    law_revision_id: Type.String({ description: 'e-Gov revision id (law id, amendment id, enforcement date)' }),
    title: Type.String({ description: 'Title of the law in this revision' }),
    promulgated_on: Nullable(Type.String({ description: 'Promulgation of the amendment (YYYY-MM-DD)' })),
    enforced_on: Nullable(Type.String({ description: 'The day this revision came (or comes) into force (YYYY-MM-DD)' })),
    status: Nullable(Type.String({ description: "e-Gov's current_revision_status: CurrentEnforced, PreviousEnforced, UnEnforced …" })),
    repeal_status: Nullable(Type.String()),
    amending_law_title: Nullable(Type.String({ description: 'The amending law' })),
    article_count: Type.Integer({ description: "Articles of this revision's text the service holds (0: metadata only)" }),
    first_seen_at: Type.String({ description: 'When the e-Gov sync first saw this revision' }),
    last_seen_at: Type.String({ description: 'When e-Gov last listed it' }),
  },
  { $id: 'LawRevision' },
);
const LawArticleDetail = tableRowSchema(lawArticles, 'LawArticleDetail', {
  law_title: Type.String(),
  source_url: Nullable(Type.String({ description: 'e-Gov page of the law' })),
  effective_on: Type.Optional(Type.String({ description: 'The date asked for: the text is that of the revision in force on it' })),
  revision: Type.Optional(LawRevision),
  attribution: Attribution,
});
const ArticleQuery = Type.Object(
  {
    effective_on: Type.Optional(
      DateParam('The text as in force on this day: the article of the latest revision the e-Gov sync keeps whose enforcement day is on or before it'),
    ),
  },
  { additionalProperties: false },
);
const RevisionsResponse = Type.Object(
  {
    law_id: Nullable(Type.String()),
    law_slug: Nullable(Type.String()),
    title: Type.String(),
    total: Type.Integer(),
    results: Type.Array(LawRevision),
    attribution: Attribution,
  },
  { $id: 'LawRevisionsResponse' },
);
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
    answered(
      lawsOperation(
        'listLawArticles',
        'Articles of a law in page order (article_key, label, caption, text)',
        { params: IdParams, querystring: ArticlesQuery, response: { 200: ArticlesResponse } },
        [400, 401, 404, 429],
      ),
      (request) => {
        const law = getRecord(app.catalog.db, spec, request.params.id) ?? notFound('Law', request.params.id);
        const { limit, offset } = page(request.query);
        const { total, rows } = law.law_slug
          ? listArticles(app.catalog.db, law.law_slug as string, { limit, offset }, request.query.supplementary)
          : { total: 0, rows: [] };
        return { total, limit, offset, results: rows, attribution };
      },
    ),
  );

  app.get(
    '/:id/articles/:art',
    answered(
      lawsOperation(
        'getLawArticle',
        'One article: `12`, `2の3`, `第二条の三`, `附則第一条` / `附則1`, or the article_key as listed (`1_附3`)',
        {
          params: Type.Object({
            id: Type.String({ minLength: 1, maxLength: 200 }),
            art: Type.String({ minLength: 1, maxLength: 100 }),
          }),
          querystring: ArticleQuery,
          response: { 200: LawArticleDetail },
        },
        [400, 401, 404, 429],
      ),
      (request) => {
        const { id, art } = request.params;
        const effectiveOn = request.query.effective_on;
        if (effectiveOn !== undefined && !isRealDate(effectiveOn))
          throw new HttpError(400, `Invalid querystring: effective_on: not a calendar date (${effectiveOn.slice(0, 20)})`);
        const db = app.catalog.db;
        const law = getRecord(db, spec, id) ?? notFound('Law', id);
        if (effectiveOn !== undefined) {
          // The text as in force on that day, from the revisions the e-Gov sync keeps.
          const revision = law.law_slug ? revisionInForce(db, law.law_slug as string, effectiveOn) : undefined;
          if (!revision) notFound(`Revision of law ${id} in force on ${effectiveOn} (GET /v1/laws/${id}/revisions lists those known)`, effectiveOn);
          if (revision.article_count === 0) notFound(`Text of revision ${revision.law_revision_id} of law ${id} (only its dates are kept)`, art);
          const { law_revision_id: _revision, ...article } =
            findRevisionArticle(db, revision.law_revision_id, art) ?? notFound(`Article of law ${id} as of ${effectiveOn}`, art);
          return {
            ...article,
            law_id: law.law_id,
            law_title: revision.title,
            source_url: law.source_url,
            effective_on: effectiveOn,
            revision,
            attribution,
          };
        }
        if (!law.article_text_available) notFound(`Article text of law ${id} (this service holds the text of 79 laws)`, art);
        const article = findArticle(db, law.law_slug as string, art) ?? notFound(`Article of law ${id}`, art);
        return {
          ...article,
          law_id: article.law_id ?? law.law_id,
          law_title: law.title,
          source_url: law.source_url,
          attribution,
        };
      },
    ),
  );

  app.get(
    '/:id/revisions',
    answered(
      lawsOperation(
        'listLawRevisions',
        'Revisions of a law the e-Gov sync has seen, newest first: dates, status, and whether its text is held (`effective_on` on an article reads it)',
        { params: IdParams, response: { 200: RevisionsResponse } },
        [400, 401, 404, 429],
      ),
      (request) => {
        const law = getRecord(app.catalog.db, spec, request.params.id) ?? notFound('Law', request.params.id);
        const results = law.law_slug ? listRevisions(app.catalog.db, law.law_slug as string) : [];
        return {
          law_id: (law.law_id as string | null) ?? null,
          law_slug: (law.law_slug as string | null) ?? null,
          title: law.title as string,
          total: results.length,
          results,
          attribution,
        };
      },
    ),
  );
};

export default lawArticlesRoutes;
