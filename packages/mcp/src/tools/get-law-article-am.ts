// get_law_article_am: the text of one statute article.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';

export const getLawArticleAm = defineTool({
  name: 'get_law_article_am',
  title: 'Text of a law article',
  description: 'Fetch the official text of one statute article from a law name or id and an article number (第17条, 17, 17の2 and similar notations accepted).',
  input: {
    law_name_or_canonical_id: z.string().min(1).max(200).describe('Law name or LAW- id'),
    article_number: z.string().min(1).max(40).describe('Article number, e.g. 第17条 or 17'),
  },
  output: {
    found: z.boolean().describe('Article found'),
    title: z.string().nullable().optional().describe('Caption'),
    text_full: z.string().nullable().optional().describe('Article text'),
    law: z.record(z.unknown()).nullable().optional().describe('The law'),
  },
  annotations: READ_ONLY,
  empty: { found: false },
  async run(call, a) {
    const body = await call.api.am.lawArticle({ law_name_or_canonical_id: a.law_name_or_canonical_id, article_number: a.article_number });
    return { ...body, result_count: body.found ? 1 : 0 };
  },
});
