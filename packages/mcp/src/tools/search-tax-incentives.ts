// search_tax_incentives: tax incentive measures by keywords, authority and
// year, as of a date. Rulesets name no industry or applicant kind, so those
// reference filters are declared not applied.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { resolveAsOf } from '../lib/dates.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { asSearch, compact } from '../lib/search.ts';
import { explainEmpty } from '../lib/coverage.ts';

const NO_FIELD = 'tax rulesets carry no such field';

export const searchTaxIncentives = defineTool({
  name: 'search_tax_incentives',
  title: 'Search tax incentives',
  description: 'Tax incentive measures by keywords, authority and the year they are in force. Same records as search_tax_rules: use this one to ask by year.',
  input: {
    query: f.q('measure names'),
    authority: z.string().max(40).optional().describe('Authority, e.g. 国税庁, 経済産業省, 自治体'),
    industry: z.string().max(100).optional().describe('Industry name or JSIC code'),
    target_year: z.number().int().min(1988).max(2099).optional().describe('In force on 1 April of this year'),
    target_entity: z.string().max(40).optional().describe('Target entity kind, e.g. 中小企業, 個人事業主'),
    natural_query: z.string().max(500).optional().describe('A question in plain words, used as keywords when query is empty'),
    as_of: f.asOf(),
    limit: f.limit(100, 20, 'measures'),
    offset: f.offset(),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  aliases: { natural_query: 'query' },
  empty: AM_EMPTY,
  notApplied: { industry: NO_FIELD, target_entity: NO_FIELD },
  async run(call, a) {
    const effectiveOn = a.target_year !== undefined ? `${a.target_year}-04-01` : resolveAsOf(a.as_of);
    const out = asSearch(
      await call.api.taxRulesets.search(
        compact({ q: a.query ?? a.natural_query, authority: a.authority, effective_on: effectiveOn, limit: a.limit, offset: a.offset }),
      ),
    );
    return (out.results as unknown[]).length > 0 ? out : await explainEmpty(call.api, 'tax_rulesets', 'tax rulesets', out);
  },
});
