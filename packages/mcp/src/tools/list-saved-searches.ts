// list_saved_searches (toolset `informed`): the saved searches of the key in use.
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

export const listSavedSearches = defineTool({
  name: 'list_saved_searches',
  title: 'List saved searches',
  description: 'The saved program searches of the API key in use, with how many matches each has had.',
  input: {},
  output: { results: o.rows() },
  annotations: READ_ONLY,
  empty: { results: [] },
  async run(call) {
    const results = (await call.api.savedSearches.list()).results;
    if (results.length > 0) return { results };
    return { results, coverage: { saved_searches: 0 }, explanation: 'This API key has no saved searches; create one with create_saved_search.' };
  },
});
