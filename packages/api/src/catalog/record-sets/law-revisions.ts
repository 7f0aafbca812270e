// The revisions of a law that the e-Gov sync has seen (sources/egov/sync.ts:
// every revision listed by the 法令API, kept across syncs even once e-Gov no
// longer lists it), and the article text of the revisions whose text it
// fetched. Both come only from the e-Gov source's overlay (the bundled dataset
// has neither file); served by GET /v1/laws/{id}/revisions and the article
// route's `effective_on` (routes/v1/laws/articles.ts).
import { Type } from 'typebox';
import { defineTable } from './spec.ts';
import { Str } from './fields.ts';

export const lawRevisions = defineTable({
  table: 'law_revisions',
  file: 'law_revisions',
  schema: Type.Object({
    law_revision_id: Type.String({ minLength: 1 }),
    law_slug: Type.String({ minLength: 1 }),
    egov_law_id: Type.String({ minLength: 1 }),
    law_title: Type.String(),
    amendment_promulgate_date: Str,
    amendment_enforcement_date: Str,
    current_revision_status: Str,
    repeal_status: Str,
    amendment_law_title: Str,
    first_seen_at: Type.String(),
    last_seen_at: Type.String(),
  }),
  columns: {
    law_revision_id: 'text',
    law_slug: 'text',
    egov_law_id: 'text',
    law_title: 'text',
    amendment_promulgate_date: 'text',
    amendment_enforcement_date: 'text',
    current_revision_status: 'text',
    repeal_status: 'text',
    amendment_law_title: 'text',
    first_seen_at: 'text',
    last_seen_at: 'text',
  },
  unique: ['law_revision_id'],
  indexes: ['law_slug, amendment_enforcement_date'],
  idField: 'law_revision_id',
});

export const lawRevisionArticles = defineTable({
  table: 'law_revision_articles',
  file: 'law_revision_articles',
  schema: Type.Object({
    law_revision_id: Type.String({ minLength: 1 }),
    law_slug: Type.String({ minLength: 1 }),
    egov_law_id: Str,
    article_key: Type.String({ minLength: 1 }),
    article_label: Type.String(),
    seq: Type.Integer({ minimum: 0 }),
    caption: Str,
    is_supplementary: Type.Boolean(),
    text: Type.String(),
  }),
  columns: {
    law_revision_id: 'text',
    law_slug: 'text',
    egov_law_id: 'text',
    article_key: 'text',
    article_label: 'text',
    seq: 'int',
    caption: 'text',
    is_supplementary: 'bool',
    text: 'text',
  },
  unique: ['law_revision_id, seq'],
  indexes: ['law_revision_id, article_key', 'law_revision_id, article_label'],
});
