// deadline_calendar: upcoming application deadlines grouped by month.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { openPrograms } from '../lib/candidates.ts';
import { addDays, todayJst } from '../lib/dates.ts';
import { closingBetween } from '../lib/deadlines.ts';
import { TIER } from '../lib/enums.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

export const deadlineCalendar = defineTool({
  name: 'deadline_calendar',
  title: 'Deadline calendar',
  description: 'Application deadlines grouped by month for the next 1 to 6 months. Use to plan by month. Windows are known for few programmes.',
  input: {
    months_ahead: z.number().int().min(1).max(6).default(3).describe('Months ahead, 1 to 6'),
    prefecture: f.prefecture(),
    tier: z.array(TIER).max(5).optional().describe('Tiers to keep'),
  },
  output: { months: z.array(z.object({ month: z.string(), programs: o.rows() })).describe('One entry per month') },
  annotations: READ_ONLY,
  rows: ['months'],
  empty: { months: [] },
  async run(call, a) {
    const today = todayJst();
    const until = addDays(today, a.months_ahead * 31);
    const found = closingBetween(await openPrograms(call.api, prefectureArg(call, a.prefecture), today), today, until, a.tier);
    const months: { month: string; programs: Row[] }[] = [];
    for (let i = 0; i < a.months_ahead; i++) {
      const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + i);
      const month = d.toISOString().slice(0, 7);
      months.push({ month, programs: found.filter((r) => r.deadline.startsWith(month)) });
    }
    const coverage = await windowCoverage(call.api);
    return { months, result_count: found.length, coverage, explanation: `${found.length} known window(s) close by ${until}. ${windowSentence(coverage)}` };
  },
});
