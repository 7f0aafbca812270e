// list_tax_sunset_alerts: tax measures whose validity ends within N days.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { daysBetween, todayJst } from '../lib/dates.ts';
import { sunsetBucket } from '../lib/deadlines.ts';
import { f, o } from '../lib/fields.ts';
import { rowsOf } from '../lib/search.ts';

export const listTaxSunsetAlerts = defineTool({
  name: 'list_tax_sunset_alerts',
  title: 'Tax measures about to expire',
  description: 'Tax measures whose validity ends within N days, grouped by how soon. Use to warn of expiring measures.',
  input: {
    days_until: z.number().int().min(1).max(1825).default(365).describe('Days ahead, 1 to 1825'),
    only_critical: z.boolean().default(false).describe('Only measures ending within 90 days'),
    limit: f.limit(500, 100, 'measures'),
  },
  output: { buckets: z.record(z.array(z.record(z.unknown()))).describe('critical (<=90 days), warning (<=180), upcoming (<=365), later'), results: o.rows() },
  annotations: READ_ONLY,
  empty: { buckets: {}, results: [] },
  async run(call, a) {
    const today = todayJst();
    const all = rowsOf(await call.api.taxRulesets.search({ effective_on: today, limit: 100 }));
    const results = all
      .map((r) => ({
        unified_id: r.unified_id,
        ruleset_name: r.ruleset_name ?? r.rule_name,
        ends_on: (r.sunset_date ?? r.effective_to ?? r.effective_until ?? null) as string | null,
        source_url: r.source_url,
      }))
      .filter((r): r is typeof r & { ends_on: string } => typeof r.ends_on === 'string' && r.ends_on >= today)
      .map((r) => ({ ...r, days_left: daysBetween(today, r.ends_on) }))
      .filter((r) => r.days_left <= a.days_until)
      .map((r) => ({ ...r, bucket: sunsetBucket(r.days_left) }))
      .filter((r) => !a.only_critical || r.bucket === 'critical')
      .sort((x, y) => x.days_left - y.days_left)
      .slice(0, a.limit);
    const buckets: Record<string, Row[]> = {};
    for (const r of results) (buckets[r.bucket] ??= []).push(r);
    const withEnd = all.filter((r) => typeof (r.sunset_date ?? r.effective_to ?? r.effective_until) === 'string').length;
    return {
      buckets,
      results,
      coverage: { rulesets_in_force: all.length, with_end_date: withEnd, as_of: today, within_days: a.days_until },
      explanation:
        results.length === 0
          ? `No tax measure in force ends within ${a.days_until} days of ${today}: ${withEnd} of the ${all.length} rulesets in force state an end date; the others may still end.`
          : null,
    };
  },
});
