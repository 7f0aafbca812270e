// get_law_article_am: the text of one statute article — in force now, or,
// with `effective_on`, as it stood on a day (GET /v1/laws/{id}/articles/{art}
// ?effective_on=, from the revisions the e-Gov sync keeps; list_law_revisions
// lists them). The law is resolved by name as /v1/am/law_article resolves it.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { apiErrorInfo } from '../lib/api.ts';

export const getLawArticleAm = defineTool({
  name: 'get_law_article_am',
  title: 'Text of a law article',
  description:
    'The official text of one article from a law name (short names accepted) or id and an article number (第17条, 17の2); with effective_on, as in force that day. Use to quote a law.',
  input: {
    law_name_or_canonical_id: z.string().min(1).max(200).describe('Law name or LAW- id'),
    article_number: z.string().min(1).max(40).describe('Article number, e.g. 第17条 or 17'),
    effective_on: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional()
      .describe('The text as in force on this day (YYYY-MM-DD); list_law_revisions shows which revisions and texts are known'),
  },
  output: {
    found: z.boolean().describe('Article found'),
    title: z.string().nullable().optional().describe('Caption'),
    text_full: z.string().nullable().optional().describe('Article text'),
    law: z.record(z.unknown()).nullable().optional().describe('The law'),
    effective_on: z.string().optional().describe('The day asked for'),
    revision: z.record(z.unknown()).nullable().optional().describe('The revision in force on effective_on whose text this is'),
  },
  annotations: READ_ONLY,
  empty: { found: false },
  async run(call, a) {
    const body = await call.api.am.lawArticle({ law_name_or_canonical_id: a.law_name_or_canonical_id, article_number: a.article_number });
    const lawId = typeof body.law?.law_id === 'string' ? body.law.law_id : null;
    if (a.effective_on === undefined || lawId === null) return { ...body, result_count: body.found ? 1 : 0 };
    try {
      const asOf = await call.api.laws.articleAsOf(lawId, a.article_number, a.effective_on);
      return {
        ...body,
        found: true,
        title: asOf.caption ?? null,
        text_full: asOf.text,
        effective_on: a.effective_on,
        revision: asOf.revision ?? null,
        result_count: 1,
      };
    } catch (err) {
      const info = apiErrorInfo(err);
      if (info?.status !== 404) throw err;
      // No revision in force that day, or its text is not kept: say so instead of the text in force now.
      return { ...body, found: false, title: null, text_full: null, effective_on: a.effective_on, revision: null, result_count: 0, explanation: info.detail };
    }
  },
});
