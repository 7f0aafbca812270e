// delete_saved_search (toolset `informed`): delete a saved search of the key in use.
import { z } from 'zod';
import { defineTool, DELETES } from '../lib/define.ts';

export const deleteSavedSearch = defineTool({
  name: 'delete_saved_search',
  title: 'Delete a saved search',
  description: 'Delete a saved search of the key in use; its matches and e-mail subscriptions go with it.',
  input: { id: z.string().min(1).max(64).describe('Saved search id, ss_…') },
  output: { deleted: z.boolean().describe('True when it was deleted') },
  annotations: DELETES,
  empty: { deleted: false },
  async run(call, a) {
    await call.api.savedSearches.delete(a.id);
    return { deleted: true };
  },
});
