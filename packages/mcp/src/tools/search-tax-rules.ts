// search_tax_rules: tax rulesets by keywords, category, kind and date in force
// (the tax-rulesets spec).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchTaxRules = recordSearchTool(RECORD_SETS.tax_rulesets, (api) => api.taxRulesets);
