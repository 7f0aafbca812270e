// create_saved_search (toolset `informed`): save a program search; new and amended matches are notified.
import { z } from 'zod';
import { defineTool, WRITES } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';
import { programSearchInput, programSearchQuery, SAVED_KINDS } from '../lib/program-search.ts';

export const createSavedSearch = defineTool({
  name: 'create_saved_search',
  title: 'Save a search',
  description:
    'Save a program search under the API key in use. Each new dataset version records its new and amended matches (see get_saved_search), sent by webhook and e-mail digest where set up.',
  // A label, and what a search selects (the API's parameter table: text, filters, order).
  input: {
    name: z.string().min(1).max(100).describe('A label for the search, shown in notifications'),
    ...programSearchInput(SAVED_KINDS),
  },
  output: { record: o.record() },
  annotations: WRITES,
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.savedSearches.create({ name: a.name, query: programSearchQuery(call, a, SAVED_KINDS) }) };
  },
});
