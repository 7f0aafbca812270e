// get_tax_rule: one tax ruleset by TAX- id.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getTaxRule = recordGetTool(RECORD_SETS.tax_rulesets, (api) => api.taxRulesets);
