// search_enforcement_cases: findings of improper subsidy use and
// administrative actions. Its filters are those of the enforcement spec
// (packages/api/src/catalog/record-sets/enforcement.ts).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';
import { f } from '../lib/fields.ts';

export const searchEnforcementCases = recordSearchTool(RECORD_SETS.enforcement, (api) => api.enforcement, {
  input: { as_of: f.asOf() },
  notApplied: { as_of: 'findings are not versioned by date' },
});
