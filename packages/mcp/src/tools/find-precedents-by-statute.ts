// find_precedents_by_statute: rulings citing a statute. The statute is looked
// up (so a wrong id is reported), the rulings are not held.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { f, o, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';
import { COURT_NOTE, noData, noDataSentence } from '../lib/no-data.ts';

export const findPrecedentsByStatute = defineTool({
  name: 'find_precedents_by_statute',
  title: 'Rulings citing a statute',
  description: `Court rulings that cite a statute. ${noDataSentence('court decisions')}`,
  input: {
    law_unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    article_citation: z.string().max(40).optional().describe('Article, e.g. 第17条'),
    limit: f.limit(100, 20, 'rulings'),
    offset: f.offset(),
  },
  output: { ...searchOutput(), law: o.record() },
  annotations: READ_ONLY,
  holdsNoData: true,
  empty: { ...SEARCH_EMPTY, law: null },
  async run(call, a) {
    const law: Row = await call.api.laws.get(a.law_unified_id);
    const message = `${COURT_NOTE} The law ${String(law.title ?? a.law_unified_id)} exists; no ruling citing it can be listed.`;
    return noData(message, 'Use find_cases_by_law for enforcement findings that cite the law.', {
      law,
      total: 0,
      limit: a.limit,
      offset: a.offset,
      results: [],
    });
  },
});
