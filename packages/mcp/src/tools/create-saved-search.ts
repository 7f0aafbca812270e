// create_saved_search (toolset `informed`): save a program search; new and amended matches are notified.
import { z } from 'zod';
import { defineTool, WRITES } from '../lib/define.ts';
import { TIER } from '../lib/enums.ts';
import { f, o, RECORD_EMPTY } from '../lib/fields.ts';

export const createSavedSearch = defineTool({
  name: 'create_saved_search',
  title: 'Save a search',
  description:
    'Save a program search under the API key in use. Each new dataset version records its new and amended matches (see get_saved_search), sent by webhook and e-mail digest where set up.',
  input: {
    name: z.string().min(1).max(100).describe('A label for the search, shown in notifications'),
    q: f.q('program names and descriptions'),
    prefecture: f.prefecture(),
    tier: z.array(TIER).max(5).optional().describe('Tiers to keep'),
    authority_level: z.enum(['national', 'prefecture', 'municipality', 'financial']).optional().describe('Level of the granting authority'),
    funding_purpose: z.array(z.string().max(100)).max(20).optional().describe('Funding purposes (OR-ed)'),
    target_type: z.array(z.string().max(100)).max(20).optional().describe('Applicant types (OR-ed)'),
    amount_min: z.number().min(0).optional().describe('Upper grant amount at least this, in 10,000 yen'),
  },
  output: { record: o.record() },
  annotations: WRITES,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const { name, ...query } = a;
    const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
    return { record: await call.api.savedSearches.create({ name, query: defined }) };
  },
});
