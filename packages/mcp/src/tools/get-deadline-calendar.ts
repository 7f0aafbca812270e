// get_deadline_calendar (toolset `informed`): application deadlines as calendar events.
import { z } from 'zod';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';

export const getDeadlineCalendar = defineTool({
  name: 'get_deadline_calendar',
  title: 'Deadline calendar events',
  description:
    'Application windows of matching programmes as all-day calendar events (closing day, or opening day when no closing day is published), with stable UIDs and source URLs; the same events as GET /v1/calendar/deadlines.ics for calendar apps.',
  input: {
    q: f.q('program names and descriptions'),
    prefecture: f.prefecture(),
    saved_search_id: z.string().max(64).optional().describe('A saved search of the key in use, instead of q and prefecture'),
    include_past: z.boolean().default(false).describe('Also windows whose day has passed'),
  },
  output: { total: o.total(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { total: 0, results: [] },
  async run(call, a) {
    const page = await call.api.calendar.deadlines({ q: a.q, prefecture: a.prefecture, saved_search_id: a.saved_search_id, include_past: a.include_past });
    const out = { total: page.total, results: page.results, truncated: page.truncated };
    if (page.results.length > 0) return out;
    const coverage = await windowCoverage(call.api);
    return { ...out, coverage, explanation: `No window of a matching programme is known. ${windowSentence(coverage)}` };
  },
});
