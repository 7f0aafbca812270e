// search_court_decisions: court rulings, which this deployment does not hold.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';
import { COURT_NOTE, noData, noDataSentence } from '../lib/no-data.ts';

export const searchCourtDecisions = defineTool({
  name: 'search_court_decisions',
  title: 'Search court decisions',
  description: `Court rulings by keywords, court and date. ${noDataSentence('court decisions')}`,
  input: {
    q: f.q('ruling texts'),
    court_level: z.enum(['supreme', 'high', 'district', 'summary', 'family']).optional().describe('Court level'),
    decision_type: z.enum(['判決', '決定', '命令']).optional().describe('Type of decision'),
    subject_area: z.string().max(100).optional().describe('Subject area'),
    references_law_id: LAW_ID.optional().describe('Only rulings citing this law (LAW- id)'),
    decided_from: f.date('Earliest decision date'),
    decided_to: f.date('Latest decision date'),
    limit: f.limit(100, 20, 'rulings'),
    offset: f.offset(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  holdsNoData: true,
  empty: SEARCH_EMPTY,
  async run(_call, a) {
    return noData(COURT_NOTE, 'Use search_enforcement_cases for administrative findings on subsidy use.', {
      total: 0,
      limit: a.limit,
      offset: a.offset,
      results: [],
    });
  },
});
