// get_program_history (toolset `informed`): a programme's versions in the change feed.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getProgramHistory = defineTool({
  name: 'get_program_history',
  title: 'Programme history',
  description: 'When a programme first appeared in the feed, and every later creation, amendment (with old and new values) and removal.',
  input: { unified_id: z.string().min(1).max(100).describe('Program id, e.g. UNI-0123456789') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    return { record: await call.api.programs.history(a.unified_id) };
  },
});
