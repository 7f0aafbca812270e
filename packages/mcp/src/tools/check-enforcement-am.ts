// check_enforcement_am: is an exclusion or penalty in force against a company.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { resolveAsOf } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { compact } from '../lib/search.ts';
import { coverageOf, notFoundSentence } from '../lib/enforcement-coverage.ts';

/** What was found, in one sentence: whether anything is in force, and, for a match by name, whom it names. */
function foundSentence(body: Row, byName: boolean, asOf: string): string {
  const history = Array.isArray(body.recent_history) ? (body.recent_history as Row[]) : [];
  const n = typeof body.all_count === 'number' ? body.all_count : history.length;
  const inForce = body.currently_excluded === true ? `an exclusion is in force on ${asOf}` : `no exclusion is in force on ${asOf}`;
  const names = [...new Set(history.map((h) => `${String(h.target_name)}${h.houjin_bangou ? ` (${String(h.houjin_bangou)})` : ''}`))].slice(0, 5);
  const who = byName ? ` Matched by name: ${names.join(', ')}; confirm it is the same company by its corporate number.` : '';
  return `${n} finding(s) name this company; ${inForce} (each finding cites its source_url).${who}`;
}

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
      explanation: body.found
        ? foundSentence(body, a.houjin_bangou === undefined, String(body.queried && (body.queried as Row).as_of_date))
        : notFoundSentence(coverage, a.houjin_bangou !== undefined),
    };
  },
});
