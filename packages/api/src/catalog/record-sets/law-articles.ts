// The article text of the laws this service holds (79 laws, e-Gov text):
// loaded with the laws record set and served under /v1/laws/{id}/articles.
import { Type } from 'typebox';
import { defineTable } from './spec.ts';
import { Str } from './fields.ts';

export default defineTable({
  table: 'law_articles',
  file: 'law_articles',
  schema: Type.Object({
    law_slug: Type.String({ minLength: 1 }),
    law_id: Str,
    egov_law_id: Str,
    article_key: Type.String({ minLength: 1 }),
    article_label: Type.String(),
    seq: Type.Integer({ minimum: 0 }),
    caption: Str,
    is_supplementary: Type.Boolean(),
    text: Type.String(),
  }),
  columns: {
    law_slug: 'text',
    law_id: 'text',
    egov_law_id: 'text',
    article_key: 'text',
    article_label: 'text',
    seq: 'int',
    caption: 'text',
    is_supplementary: 'bool',
    text: 'text',
  },
  // The dataset's unique key; article_key repeats on a few pages (source quirk).
  unique: ['law_slug, seq'],
  indexes: ['law_slug, article_key', 'law_id', 'law_slug, article_label'],
  check: (r) => (r.law_slug ? null : 'field law_slug: missing'),
});
