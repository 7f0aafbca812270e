// search_enforcement_cases: findings of improper subsidy use and
// administrative actions. Its filters are those of the enforcement spec
// (packages/api/src/catalog/record-sets/enforcement.ts).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';
import { ROW_DETAIL } from '../lib/enums.ts';
import { f } from '../lib/fields.ts';

export const searchEnforcementCases = recordSearchTool(RECORD_SETS.enforcement, (api) => api.enforcement, {
  input: { fields: ROW_DETAIL.default('minimal').describe('Row detail: minimal, standard or full'), as_of: f.asOf() },
  notApplied: { fields: 'findings come in one row shape', as_of: 'findings are not versioned by date' },
});
