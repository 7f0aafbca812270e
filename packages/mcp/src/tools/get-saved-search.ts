// get_saved_search (toolset `informed`): one saved search and its newest matches.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getSavedSearch = defineTool({
  name: 'get_saved_search',
  title: 'Get a saved search',
  description: 'One saved search of the key in use with its newest matches (programmes created or amended by recent dataset versions).',
  input: { id: z.string().min(1).max(64).describe('Saved search id, ss_…') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.savedSearches.get(a.id) };
  },
});
