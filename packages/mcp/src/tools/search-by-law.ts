// search_by_law: programs, tax measures, loans and certifications tied to a
// statute. A law carries only its latest amendment date and links carry none,
// so the reference's amendment-date filter is declared not applied.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { compact } from '../lib/search.ts';

export const searchByLaw = defineTool({
  name: 'search_by_law',
  title: 'Records tied to a law',
  description:
    "Given a law name (formal or short), the programmes, tax measures, loans and certifications tied to it. Use for 'what support rests on this law'.",
  input: {
    law_name: z.string().min(1).max(200).describe('Law name, e.g. 中小企業等経営強化法 or 補助金適正化法'),
    article: z.string().max(40).optional().describe('Article, e.g. 第17条'),
    amendment_date: f.date('Amendment date'),
    limit: f.limit(100, 20, 'records'),
    offset: f.offset(),
  },
  output: { ...amRows(), law_aliases_tried: z.array(z.string()).optional().describe('Law names tried') },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  notApplied: { amendment_date: 'amendment dates are not recorded per link' },
  async run(call, a) {
    return { ...(await call.api.am.byLaw(compact({ law_name: a.law_name, article: a.article, limit: a.limit, offset: a.offset }))) };
  },
});
