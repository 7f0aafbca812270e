// The meter outbox: billable usage of customers waiting to be reported to the
// payment provider. Rows are queued by the usage repository in the same
// transaction as their usage event (`queueMeterEvent`), and drained by the
// billing flusher. The event id is the provider's meter event identifier, so
// a retried delivery never bills twice.
import { now, num, placeholders, type Queryer, type SqlDatabase } from '../sql.ts';

/** Attempts after which a refused meter event is parked (kept, no longer retried). */
export const MAX_METER_ATTEMPTS = 20;

export interface MeterOutboxItem {
  eventId: string;
  customerId: string;
  /** Unix seconds of the usage. */
  timestamp: number;
  value: number;
  attempts: number;
}

/** Queue one unit of usage for the provider; a replayed event id is ignored. Runs inside the caller's transaction. */
export async function queueMeterEvent(q: Queryer, item: { eventId: string; customerId: string; timestamp: number }): Promise<void> {
  await q.run(
    `INSERT INTO meter_outbox (event_id, customer_id, ts, value, attempts, created_at)
     VALUES (?, ?, ?, 1, 0, ?) ON CONFLICT (event_id) DO NOTHING`,
    [item.eventId, item.customerId, item.timestamp, now()],
  );
}

export type MeterOutboxRepository = ReturnType<typeof meterOutboxRepository>;

export function meterOutboxRepository(db: SqlDatabase) {
  return {
    /** The oldest unsent events, at most `limit`. */
    async pending(limit: number): Promise<MeterOutboxItem[]> {
      // Events the provider refused MAX_METER_ATTEMPTS times stay in the table
      // with their last error (nothing is lost; an operator can inspect them)
      // but no longer take a place in every flush.
      const rows = await db.all(
        `SELECT event_id, customer_id, ts, value, attempts FROM meter_outbox
         WHERE sent_at IS NULL AND attempts < ? ORDER BY created_at, event_id LIMIT ?`,
        [MAX_METER_ATTEMPTS, limit],
      );
      return rows.map((r) => ({
        eventId: String(r.event_id),
        customerId: String(r.customer_id),
        timestamp: num(r.ts),
        value: num(r.value),
        attempts: num(r.attempts),
      }));
    },

    async markSent(eventIds: string[]): Promise<void> {
      if (!eventIds.length) return;
      await db.run(`UPDATE meter_outbox SET sent_at = ? WHERE event_id IN (${placeholders(eventIds.length)})`, [now(), ...eventIds]);
    },

    async markFailed(eventIds: string[], error: string): Promise<void> {
      if (!eventIds.length) return;
      await db.run(
        `UPDATE meter_outbox SET attempts = attempts + 1, last_error = ? WHERE event_id IN (${placeholders(eventIds.length)})`,
        [error.slice(0, 500), ...eventIds],
      );
    },
  };
}
