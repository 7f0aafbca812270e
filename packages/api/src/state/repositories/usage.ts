// Usage events and the monthly spend they add up to. One event is written in
// one transaction with its spend and its meter-outbox row; `recordMany`
// writes several in one transaction with the same statements (for a group
// commit), each event still guarded by its own cap. The spend is one atomic
// `INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING` statement, so a cap
// holds when several processes share one PostgreSQL. Events carry key ids
// and customer ids, never a raw key or a client address.
import { jstDate } from '../../time.ts';
import { num, type Queryer, type SqlDatabase } from '../sql.ts';
import { queueMeterEvent } from './meter-outbox.ts';
import type { Tier } from './keys.ts';

export interface UsageEvent {
  /** Stable unique id (UUID); also the Stripe meter event identifier, so a retry never bills twice. */
  eventId: string;
  keyId: number | null;
  customerId: string | null;
  tier: Tier | 'anonymous';
  method: string;
  route: string;
  status: number;
  billable: boolean;
  /** Yen charged for this event (0 when not billable). */
  amountYen: number;
  /** Billing units of the request (default 1; an export counts one per started 100 rows): the meter event's value. */
  units?: number;
  /** Japan-time month `YYYY-MM` the event is billed in. */
  billingMonth: string;
  createdAt: string;
}

/** One event to record and the monthly cap (yen) its key's spend must stay within; null = uncapped. */
export interface UsageEntry {
  event: UsageEvent;
  capYen: number | null;
}

export interface UsageSummary {
  requests: number;
  billableRequests: number;
  spendYen: number;
  perDay: { date: string; requests: number; billable: number }[];
  topEndpoints: { route: string; requests: number }[];
}

/**
 * Write one event inside the caller's transaction; false when its spend would
 * pass the cap (then nothing of it remains). A replayed event id changes nothing.
 */
async function writeEvent(q: Queryer, { event, capYen }: UsageEntry): Promise<boolean> {
  const created = new Date(event.createdAt);
  const when = Number.isNaN(created.getTime()) ? new Date() : created;
  const inserted = await q.all(
    `INSERT INTO usage_events (event_id, key_id, customer_id, tier, method, route, status, billable, amount_yen, billing_month, day_jst, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
    [
      event.eventId, event.keyId, event.customerId, event.tier, event.method, event.route, event.status,
      event.billable ? 1 : 0, event.billable ? event.amountYen : 0, event.billingMonth, jstDate(when), event.createdAt,
    ],
  );
  if (!inserted.length) return true; // already recorded: a retry changes nothing
  if (event.billable && event.amountYen > 0 && event.keyId !== null) {
    const spent = await q.all(
      `INSERT INTO monthly_spend (key_id, billing_month, spent_yen)
       SELECT CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER)
       WHERE CAST(? AS INTEGER) IS NULL OR CAST(? AS INTEGER) <= CAST(? AS INTEGER)
       ON CONFLICT (key_id, billing_month) DO UPDATE SET spent_yen = monthly_spend.spent_yen + excluded.spent_yen
       WHERE CAST(? AS INTEGER) IS NULL OR monthly_spend.spent_yen + excluded.spent_yen <= CAST(? AS INTEGER)
       RETURNING spent_yen`,
      [event.keyId, event.billingMonth, event.amountYen, capYen, event.amountYen, capYen, capYen, capYen],
    );
    if (!spent.length) {
      // Over the cap: the guarded statement wrote nothing; take back the row
      // this transaction just inserted, so the refused event leaves nothing
      // behind while the other events of the transaction stand.
      await q.run('DELETE FROM usage_events WHERE event_id = ?', [event.eventId]);
      return false;
    }
  }
  if (event.billable && event.customerId) {
    await queueMeterEvent(q, { eventId: event.eventId, customerId: event.customerId, timestamp: Math.floor(when.getTime() / 1000), value: event.units ?? 1 });
  }
  return true;
}

export type UsageRepository = ReturnType<typeof usageRepository>;

export function usageRepository(db: SqlDatabase) {
  /** Record several events in ONE transaction; result i says whether event i stayed within its cap. */
  async function recordMany(entries: readonly UsageEntry[]): Promise<boolean[]> {
    if (!entries.length) return [];
    return db.tx(async (q) => {
      const results: boolean[] = [];
      for (const entry of entries) results.push(await writeEvent(q, entry));
      return results;
    });
  }

  return {
    /**
     * Record a usage event. When `capYen` is set and the event is billable,
     * it is written only if the month's spend stays within the cap; returns
     * false (nothing written) when it would not. Billable events of customers
     * are queued in the meter outbox in the same transaction.
     */
    async record(event: UsageEvent, capYen: number | null): Promise<boolean> {
      const [recorded] = await recordMany([{ event, capYen }]);
      return recorded;
    },

    recordMany,

    /** Yen spent by a key in a Japan-time month `YYYY-MM`. */
    async monthlySpend(keyId: number, billingMonth: string): Promise<number> {
      const rows = await db.all<{ spent_yen: unknown }>(
        'SELECT spent_yen FROM monthly_spend WHERE key_id = ? AND billing_month = ?',
        [keyId, billingMonth],
      );
      return rows.length ? num(rows[0].spent_yen) : 0;
    },

    /** A key's month: totals, a per-day series (Japan time) and its ten busiest routes. */
    async summary(keyId: number, billingMonth: string): Promise<UsageSummary> {
      const [totals] = await db.all(
        `SELECT CAST(COUNT(*) AS INTEGER) AS requests, CAST(COALESCE(SUM(billable), 0) AS INTEGER) AS billable,
                CAST(COALESCE(SUM(amount_yen), 0) AS INTEGER) AS spend
         FROM usage_events WHERE key_id = ? AND billing_month = ?`,
        [keyId, billingMonth],
      );
      const perDay = await db.all(
        `SELECT day_jst, CAST(COUNT(*) AS INTEGER) AS requests, CAST(SUM(billable) AS INTEGER) AS billable
         FROM usage_events WHERE key_id = ? AND billing_month = ? GROUP BY day_jst ORDER BY day_jst`,
        [keyId, billingMonth],
      );
      const top = await db.all(
        `SELECT route, CAST(COUNT(*) AS INTEGER) AS requests
         FROM usage_events WHERE key_id = ? AND billing_month = ? GROUP BY route ORDER BY requests DESC, route LIMIT 10`,
        [keyId, billingMonth],
      );
      return {
        requests: num(totals.requests),
        billableRequests: num(totals.billable),
        spendYen: num(totals.spend),
        perDay: perDay.map((r) => ({ date: String(r.day_jst), requests: num(r.requests), billable: num(r.billable) })),
        topEndpoints: top.map((r) => ({ route: String(r.route), requests: num(r.requests) })),
      };
    },
  };
}
