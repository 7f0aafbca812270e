// search_laws: the statute catalogue (a record set: see
// search_enforcement_cases for how its filters will be produced).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

export const searchLaws = defineTool({
  name: 'search_laws',
  title: 'Search laws',
  description: 'Search the catalogue of Japanese statutes and regulations by keywords, type, ministry and status.',
  input: {
    q: f.q('law titles and numbers'),
    law_type: z.enum(['constitution', 'act', 'cabinet_order', 'imperial_order', 'ministerial_ordinance', 'rule', 'notice', 'guideline']).optional().describe('Type of instrument'),
    ministry: z.string().max(100).optional().describe('Ministry code, e.g. mhlw, meti, mof-nta'),
    currently_effective_only: z.boolean().default(true).describe('Only laws in force (status active)'),
    include_repealed: z.boolean().default(false).describe('Also return repealed laws'),
    limit: f.limit(100, 20, 'laws'),
    offset: f.offset(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: { law_type: 'laws carry no instrument type' },
  async run(call, a) {
    const status = a.include_repealed ? undefined : a.currently_effective_only ? 'active' : undefined;
    const body = await call.api.laws.search(compact({ q: a.q, ministry_code: a.ministry, status, limit: a.limit, offset: a.offset }));
    return noHits('law', asSearch(body));
  },
});
