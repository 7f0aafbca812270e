// The meter outbox: billable usage of customers waiting to be reported to the
// payment provider. Rows are queued by the usage repository in the same
// transaction as their usage event (`queueMeterEvent`), and drained by the
// billing flusher. The event id is the provider's meter event identifier, so
// a retried delivery never bills twice.
//
// A row is pending until sent. Transport failures and outages leave it
// pending without counting an attempt (the flusher backs off instead); only
// the provider's permanent refusal parks it (`parked_at`): kept with its
// error, no longer sent, until an operator replays it (`cli meter replay`).
// `first_attempt_at` is when it was first sent: the provider de-duplicates
// identifiers for a limited time after that, which bounds a safe replay.
import { now, num, placeholders, strOrNull, type Queryer, type Row, type SqlDatabase } from '../sql.ts';

export interface MeterOutboxItem {
  eventId: string;
  customerId: string;
  /** Unix seconds of the usage. */
  timestamp: number;
  value: number;
  attempts: number;
}

export interface ParkedMeterEvent extends MeterOutboxItem {
  parkedAt: string;
  firstAttemptAt: string | null;
  lastError: string | null;
}

export interface MeterOutboxStats {
  /** Unsent and not parked: waiting for the flusher. */
  pending: number;
  /** Refused by the provider for good; waiting for an operator. */
  parked: number;
  /** Creation time of the oldest pending row, or null. */
  oldestPendingAt: string | null;
}

/** Queue usage for the provider (`value` units, default 1); a replayed event id is ignored. Runs inside the caller's transaction. */
export async function queueMeterEvent(q: Queryer, item: { eventId: string; customerId: string; timestamp: number; value?: number }): Promise<void> {
  await q.run(
    `INSERT INTO meter_outbox (event_id, customer_id, ts, value, attempts, created_at)
     VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (event_id) DO NOTHING`,
    [item.eventId, item.customerId, item.timestamp, item.value ?? 1, now()],
  );
}

/** Queue several events in one statement (a group commit's batch); replayed ids are ignored. */
export async function queueMeterEvents(
  q: Queryer,
  items: readonly { eventId: string; customerId: string; timestamp: number; value?: number }[],
): Promise<void> {
  const at = now();
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    await q.run(
      `INSERT INTO meter_outbox (event_id, customer_id, ts, value, attempts, created_at)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, 0, ?)').join(', ')} ON CONFLICT (event_id) DO NOTHING`,
      chunk.flatMap((item) => [item.eventId, item.customerId, item.timestamp, item.value ?? 1, at]),
    );
  }
}

export type MeterOutboxRepository = ReturnType<typeof meterOutboxRepository>;

const item = (r: Row): MeterOutboxItem => ({
  eventId: String(r.event_id),
  customerId: String(r.customer_id),
  timestamp: num(r.ts),
  value: num(r.value),
  attempts: num(r.attempts),
});

export function meterOutboxRepository(db: SqlDatabase) {
  return {
    /** The oldest unsent, unparked events, at most `limit`. */
    async pending(limit: number): Promise<MeterOutboxItem[]> {
      const rows = await db.all(
        `SELECT event_id, customer_id, ts, value, attempts FROM meter_outbox
         WHERE sent_at IS NULL AND parked_at IS NULL ORDER BY created_at, event_id LIMIT ?`,
        [limit],
      );
      return rows.map(item);
    },

    /** Note that these events are being sent now (the first time is kept: it starts the provider's de-duplication window). */
    async markAttempted(eventIds: string[]): Promise<void> {
      if (!eventIds.length) return;
      await db.run(`UPDATE meter_outbox SET first_attempt_at = COALESCE(first_attempt_at, ?) WHERE event_id IN (${placeholders(eventIds.length)})`, [
        now(),
        ...eventIds,
      ]);
    },

    async markSent(eventIds: string[]): Promise<void> {
      if (!eventIds.length) return;
      await db.run(`UPDATE meter_outbox SET sent_at = ? WHERE event_id IN (${placeholders(eventIds.length)})`, [now(), ...eventIds]);
    },

    /** A transient failure (outage, network, rate limit): the rows stay pending, no attempt is counted. */
    async markDeferred(eventIds: string[], error: string): Promise<void> {
      if (!eventIds.length) return;
      await db.run(`UPDATE meter_outbox SET last_error = ? WHERE event_id IN (${placeholders(eventIds.length)})`, [error.slice(0, 500), ...eventIds]);
    },

    /** The provider refused these events for good: park them with the reason. */
    async park(eventIds: string[], error: string): Promise<void> {
      if (!eventIds.length) return;
      await db.run(
        `UPDATE meter_outbox SET attempts = attempts + 1, last_error = ?, parked_at = ? WHERE event_id IN (${placeholders(eventIds.length)}) AND sent_at IS NULL`,
        [error.slice(0, 500), now(), ...eventIds],
      );
    },

    async stats(): Promise<MeterOutboxStats> {
      const [row] = await db.all(
        `SELECT
           SUM(CASE WHEN sent_at IS NULL AND parked_at IS NULL THEN 1 ELSE 0 END) AS pending,
           SUM(CASE WHEN sent_at IS NULL AND parked_at IS NOT NULL THEN 1 ELSE 0 END) AS parked,
           MIN(CASE WHEN sent_at IS NULL AND parked_at IS NULL THEN created_at END) AS oldest
         FROM meter_outbox`,
      );
      return { pending: num(row?.pending ?? 0), parked: num(row?.parked ?? 0), oldestPendingAt: strOrNull(row?.oldest) };
    },

    /** Parked events, oldest first. */
    async parked(limit = 1000): Promise<ParkedMeterEvent[]> {
      const rows = await db.all(
        `SELECT event_id, customer_id, ts, value, attempts, parked_at, first_attempt_at, last_error FROM meter_outbox
         WHERE sent_at IS NULL AND parked_at IS NOT NULL ORDER BY created_at, event_id LIMIT ?`,
        [limit],
      );
      return rows.map((r) => ({
        ...item(r),
        parkedAt: String(r.parked_at),
        firstAttemptAt: strOrNull(r.first_attempt_at),
        lastError: strOrNull(r.last_error),
      }));
    },

    /** Put parked events back in the queue (an operator's replay); returns how many. */
    unpark(eventIds: string[]): Promise<number> {
      if (!eventIds.length) return Promise.resolve(0);
      return db.run(
        `UPDATE meter_outbox SET parked_at = NULL WHERE event_id IN (${placeholders(eventIds.length)}) AND parked_at IS NOT NULL AND sent_at IS NULL`,
        eventIds,
      );
    },
  };
}
