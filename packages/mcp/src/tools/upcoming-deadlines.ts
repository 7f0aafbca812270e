// upcoming_deadlines: programs whose application window closes within N days.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { openPrograms } from '../lib/candidates.ts';
import { addDays, daysBetween, todayJst } from '../lib/dates.ts';
import { closingBetween, deadlineOf } from '../lib/deadlines.ts';
import { compact, rowsOf } from '../lib/search.ts';
import { TIER } from '../lib/enums.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

/** Programmes on the topic without a recorded window, listed apart. */
const UNDATED_SHOWN = 5;

export const upcomingDeadlines = defineTool({
  name: 'upcoming_deadlines',
  title: 'Upcoming application deadlines',
  description:
    "Programmes whose application window closes within N days, soonest first. Use for 'what closes soon'. Not for a month view (deadline_calendar). Windows are known for few programmes.",
  input: {
    within_days: z.number().int().min(1).max(180).optional().describe('Days ahead to look (default 30)'),
    days_ahead: z.number().int().min(1).max(180).optional().describe('Alias of within_days'),
    q: z.string().max(200).optional().describe('Topic keywords, e.g. 省エネ'),
    prefecture: f.prefecture(),
    authority_level: z.string().max(20).optional().describe('national, prefecture, municipality or financial'),
    tier: z.array(TIER).max(5).optional().describe('Tiers to keep'),
    limit: f.limit(100, 50, 'programs'),
  },
  output: { results: o.rows(), window_end: z.string().describe('Last date included'), undated: o.rows().optional() },
  annotations: READ_ONLY,
  rows: ['results', 'undated'],
  aliases: { days_ahead: 'within_days' },
  empty: { results: [], window_end: '' },
  async run(call, a) {
    const today = todayJst();
    const until = addDays(today, a.within_days ?? a.days_ahead ?? 30);
    const prefecture = prefectureArg(call, a.prefecture);
    const found = closingBetween(await openPrograms(call.api, prefecture, today, a.q), today, until, a.tier)
      .filter((r) => !a.authority_level || r.authority_level === a.authority_level)
      .map((r) => ({ ...r, days_remaining: daysBetween(today, r.deadline) }))
      .slice(0, a.limit);
    const coverage = await windowCoverage(call.api);
    const sentence = `${found.length === 0 ? `No known window closes between ${today} and ${until}.` : `${found.length} known window(s) close by ${until}.`} ${windowSentence(coverage)}`;
    if (!a.q?.trim()) return { window_end: until, results: found, coverage, explanation: sentence };
    // A topic: the programmes on it whose window is not recorded are what the adviser still has to check, listed apart.
    const listed = new Set(found.map((r) => (r as Row).entity_id ?? (r as Row).unified_id));
    const topic = rowsOf(
      await call.api.programs.search(compact({ q: a.q.trim(), applicable_in: prefecture, limit: UNDATED_SHOWN * 2, fields: 'default' as const })),
    );
    const undated = topic
      .filter((r) => !listed.has(r.unified_id) && deadlineOf(r) === null)
      .slice(0, UNDATED_SHOWN)
      .map((r) => ({ ...r, why: 'on the topic; window not recorded: check at official_url' }));
    return {
      window_end: until,
      results: found,
      undated,
      result_count: found.length + undated.length,
      coverage,
      explanation: `${sentence}${undated.length > 0 ? ` undated: ${undated.length} programme(s) on the topic whose window is not recorded (check each at its source).` : ''}`,
    };
  },
});
