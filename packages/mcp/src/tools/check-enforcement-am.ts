// check_enforcement_am: is an exclusion or penalty in force against a company.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { resolveAsOf } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { compact } from '../lib/search.ts';
import { coverageOf, notFoundSentence } from '../lib/enforcement-coverage.ts';

export const checkEnforcementAm = defineTool({
  name: 'check_enforcement_am',
  title: 'Enforcement check for a company',
  description:
    'Is an exclusion or penalty in force against a company (corporate number or name) on a date, with its recent history. Use to screen one company.',
  input: {
    houjin_bangou: f.houjin(),
    target_name: z.string().max(200).optional().describe('Company name'),
    as_of_date: f.asOf(),
  },
  output: {
    found: z.boolean().describe('Any record found'),
    currently_excluded: z.boolean().describe('An exclusion is in force on the date'),
    active_exclusions: o.rows(),
    recent_history: o.rows(),
    all_count: z.number().int().optional().describe('All records found'),
  },
  annotations: READ_ONLY,
  empty: { found: false, currently_excluded: false, active_exclusions: [], recent_history: [] },
  async run(call, a) {
    const body = await call.api.am.enforcement(compact({ houjin_bangou: a.houjin_bangou, target_name: a.target_name, as_of_date: resolveAsOf(a.as_of_date) }));
    const coverage = coverageOf(body);
    return {
      ...body,
      ...(coverage ? { coverage } : {}),
      result_count: typeof body.all_count === 'number' ? body.all_count : 0,
      explanation: body.found ? null : notFoundSentence(coverage, a.houjin_bangou !== undefined),
    };
  },
});
