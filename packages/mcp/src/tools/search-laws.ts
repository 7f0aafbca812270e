// search_laws: the statute catalogue (the laws spec). Its own switches
// currently_effective_only / include_repealed choose the status filter.
import { z } from 'zod';
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchLaws = recordSearchTool(RECORD_SETS.laws, (api) => api.laws, {
  input: {
    currently_effective_only: z.boolean().default(true).describe('Only laws in force (status active)'),
    include_repealed: z.boolean().default(false).describe('Also return repealed laws'),
  },
  query: (a) => ({ status: a.include_repealed ? undefined : a.currently_effective_only ? 'active' : undefined }),
});
