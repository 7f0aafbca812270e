// Operator analytics for /v1/admin: an error log counted per route pattern
// and status (no address, no key), and read-only views over the usage,
// counter and key tables (funnel by day and tier, key cohorts by month).
import { jstDate } from '../../lib/time.ts';
import { now, num, type SqlDatabase } from '../sql.ts';

const DAY_MS = 86_400_000;

export type AnalyticsRepository = ReturnType<typeof analyticsRepository>;

export function analyticsRepository(db: SqlDatabase) {
  return {
    /** Count one 4xx/5xx answer of a route pattern (route and status only). */
    async recordError(route: string, status: number): Promise<void> {
      const at = now();
      await db.run(
        `INSERT INTO error_log (route, status, day, count, last_at) VALUES (?, ?, ?, 1, ?)
         ON CONFLICT (route, status, day) DO UPDATE SET count = error_log.count + 1, last_at = excluded.last_at`,
        [route.slice(0, 200), status, at.slice(0, 10), at],
      );
    },

    /** The most frequent errors by route and status, at most `limit`. */
    async errors(limit: number): Promise<{ route: string; status: number; count: number; lastAt: string }[]> {
      const rows = await db.all(
        `SELECT route, status, CAST(SUM(count) AS INTEGER) AS count, MAX(last_at) AS last_at
         FROM error_log GROUP BY route, status ORDER BY count DESC, route, status LIMIT ?`,
        [limit],
      );
      return rows.map((r) => ({ route: String(r.route), status: num(r.status), count: num(r.count), lastAt: String(r.last_at) }));
    },

    /** Requests per Japan-time day and tier over the last `days` days (anonymous ones from their counters). */
    async funnel(days: number): Promise<{ date: string; tier: string; requests: number }[]> {
      const since = jstDate(new Date(Date.now() - Math.max(0, days - 1) * DAY_MS));
      const keyed = await db.all(
        `SELECT day_jst AS date, tier, CAST(COUNT(*) AS INTEGER) AS requests FROM usage_events
         WHERE day_jst >= ? GROUP BY day_jst, tier`,
        [since],
      );
      const anonymous = await db.all(
        `SELECT period AS date, 'anonymous' AS tier, CAST(SUM(count) AS INTEGER) AS requests FROM counters
         WHERE scope = 'anon' AND period >= ? GROUP BY period`,
        [since],
      );
      return [...keyed, ...anonymous]
        .map((r) => ({ date: String(r.date), tier: String(r.tier), requests: num(r.requests) }))
        .sort((a, b) => a.date.localeCompare(b.date) || a.tier.localeCompare(b.tier));
    },

    /** Keys created per month, and how many of them were used in the last 30 days. */
    async cohorts(): Promise<{ month: string; keys: number; active: number }[]> {
      const since = new Date(Date.now() - 30 * DAY_MS).toISOString();
      const rows = await db.all(
        `SELECT SUBSTR(k.created_at, 1, 7) AS month, CAST(COUNT(*) AS INTEGER) AS keys,
                CAST(SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.key_id = k.id AND u.created_at >= ?) THEN 1 ELSE 0 END) AS INTEGER) AS active
         FROM api_keys k GROUP BY SUBSTR(k.created_at, 1, 7) ORDER BY month`,
        [since],
      );
      return rows.map((r) => ({ month: String(r.month), keys: num(r.keys), active: num(r.active) }));
    },
  };
}
