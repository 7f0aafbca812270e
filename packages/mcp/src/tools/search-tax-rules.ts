// search_tax_rules: tax rulesets by keywords, category, kind and date in force
// (the tax-rulesets spec).
import { z } from 'zod';
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchTaxRules = recordSearchTool(RECORD_SETS.tax_rulesets, (api) => api.taxRulesets, {
  input: { fields: z.enum(['minimal', 'default', 'full']).default('default').describe('Row detail: minimal, default or full') },
  notApplied: { fields: 'rulesets come in one row shape' },
});
