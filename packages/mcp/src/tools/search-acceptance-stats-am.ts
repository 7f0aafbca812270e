// search_acceptance_stats_am: application/acceptance statistics per program
// round, which this deployment does not hold.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { ACCEPTANCE_NOTE, noData, noDataSentence } from '../lib/no-data.ts';
import { regionArg } from '../lib/prefecture.ts';

export const searchAcceptanceStatsAm = defineTool({
  name: 'search_acceptance_stats_am',
  title: 'Acceptance statistics',
  description: `Application and acceptance statistics per programme round. ${noDataSentence('acceptance statistics')}`,
  input: {
    program_name: z.string().max(200).optional().describe('Program name (substring)'),
    year: z.number().int().min(2010).max(2099).optional().describe('Fiscal year'),
    region: f.region(),
    industry: z.string().max(100).optional().describe('Industry'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'rounds'),
    offset: f.offset(),
  },
  output: amRows(),
  annotations: READ_ONLY,
  holdsNoData: true,
  empty: AM_EMPTY,
  async run(call, a) {
    regionArg(call, a.region);
    return noData(ACCEPTANCE_NOTE, "Each program's source_url may publish its own acceptance figures.", {
      total: 0,
      limit: a.limit,
      offset: a.offset,
      results: [],
    });
  },
});
