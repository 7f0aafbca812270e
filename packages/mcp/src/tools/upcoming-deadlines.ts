// upcoming_deadlines: programs whose application window closes within N days.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { openPrograms } from '../lib/candidates.ts';
import { addDays, daysBetween, todayJst } from '../lib/dates.ts';
import { closingBetween } from '../lib/deadlines.ts';
import { TIER } from '../lib/enums.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

export const upcomingDeadlines = defineTool({
  name: 'upcoming_deadlines',
  title: 'Upcoming application deadlines',
  description:
    "Programmes whose application window closes within N days, soonest first. Use for 'what closes soon'. Not for a month view (deadline_calendar). Windows are known for few programmes.",
  input: {
    within_days: z.number().int().min(1).max(180).optional().describe('Days ahead to look (default 30)'),
    days_ahead: z.number().int().min(1).max(180).optional().describe('Alias of within_days'),
    prefecture: f.prefecture(),
    authority_level: z.string().max(20).optional().describe('national, prefecture, municipality or financial'),
    tier: z.array(TIER).max(5).optional().describe('Tiers to keep'),
    limit: f.limit(100, 50, 'programs'),
  },
  output: { results: o.rows(), window_end: z.string().describe('Last date included') },
  annotations: READ_ONLY,
  rows: ['results'],
  aliases: { days_ahead: 'within_days' },
  empty: { results: [], window_end: '' },
  async run(call, a) {
    const today = todayJst();
    const until = addDays(today, a.within_days ?? a.days_ahead ?? 30);
    const found = closingBetween(await openPrograms(call.api, prefectureArg(call, a.prefecture), today), today, until, a.tier)
      .filter((r) => !a.authority_level || r.authority_level === a.authority_level)
      .map((r) => ({ ...r, days_remaining: daysBetween(today, r.deadline) }))
      .slice(0, a.limit);
    const coverage = await windowCoverage(call.api);
    return {
      window_end: until,
      results: found,
      coverage,
      explanation: `${found.length === 0 ? `No known window closes between ${today} and ${until}.` : `${found.length} known window(s) close by ${until}.`} ${windowSentence(coverage)}`,
    };
  },
});
