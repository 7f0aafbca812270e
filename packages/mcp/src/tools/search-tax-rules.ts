// search_tax_rules: tax rulesets by keywords, category, kind and date in force.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

export const searchTaxRules = defineTool({
  name: 'search_tax_rules',
  title: 'Search tax rulesets',
  description: 'Search tax rulesets (invoice system, e-bookkeeping, credits, deductions, special depreciation) by keywords, tax category, kind and the date they must be in force.',
  input: {
    q: f.q('ruleset names and legal bases'),
    tax_category: z.enum(['consumption', 'corporate', 'income', 'property', 'local', 'inheritance']).optional().describe('Tax category'),
    ruleset_kind: z.enum(['registration', 'credit', 'deduction', 'special_depreciation', 'exemption', 'preservation', 'other']).optional().describe('Kind of ruleset'),
    effective_on: f.date('Keep rulesets in force on this date'),
    limit: f.limit(100, 20, 'rulesets'),
    offset: f.offset(),
    fields: z.enum(['minimal', 'default', 'full']).default('default').describe('Row detail: minimal, default or full'),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: { fields: 'rulesets come in one row shape' },
  async run(call, a) {
    const body = await call.api.taxRulesets.search(compact({
      q: a.q, tax_category: a.tax_category, ruleset_kind: a.ruleset_kind, effective_on: a.effective_on, limit: a.limit, offset: a.offset,
    }));
    return noHits('tax ruleset', asSearch(body));
  },
});
