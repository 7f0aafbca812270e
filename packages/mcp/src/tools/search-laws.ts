// search_laws: the statute catalogue (the laws spec). Its own switches
// currently_effective_only / include_repealed choose the status filter; "in
// force" keeps the laws whose status is not recorded (a third of them,
// 租税特別措置法 and 経営承継円滑化法 among them).
import { z } from 'zod';
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchLaws = recordSearchTool(RECORD_SETS.laws, (api) => api.laws, {
  input: {
    currently_effective_only: z.boolean().default(true).describe('Leave out repealed and superseded laws (unknown status kept)'),
    include_repealed: z.boolean().default(false).describe('Also return repealed laws'),
  },
  query: (a) => ({ in_force: a.include_repealed || !a.currently_effective_only ? undefined : 'true' }),
});
