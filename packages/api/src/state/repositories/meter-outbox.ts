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
//
// Rows are reported in aggregates (docs/decisions/0435-meter-events-per-customer-second.md):
// the rows of one customer and one second become one meter event whose value
// is their sum and whose identifier is the aggregate's id. `groupSecond`
// names each row's aggregate once, before its first send (only rows without
// one: a row that arrives later, or that another process grouped first, is
// never added to an aggregate that may have been sent); from then on the
// aggregate is sent, resent and marked as a whole.
import { now, num, placeholders, strOrNull, type Queryer, type Row, type SqlDatabase } from '../sql.ts';

export interface MeterOutboxItem {
  eventId: string;
  customerId: string;
  /** Unix seconds of the usage. */
  timestamp: number;
  value: number;
  attempts: number;
  /** The meter event this row is reported in; null until the flusher first groups it. */
  aggregateId: string | null;
  /** When it was first sent (the provider's de-duplication window starts then); null: never. */
  firstAttemptAt: string | null;
}

/** One meter event: the pending rows of one aggregate. */
export interface MeterAggregate {
  aggregateId: string;
  customerId: string;
  /** Unix seconds shared by its rows. */
  timestamp: number;
  /** The sum of its rows' values. */
  value: number;
  /** How many outbox rows (usage events) it reports. */
  rows: number;
}

/** Which rows a mark applies to: these event ids, or every row of these aggregates. */
export type OutboxRows = 'event' | 'aggregate';
const column = (by: OutboxRows): string => (by === 'event' ? 'event_id' : 'aggregate_id');

export interface ParkedMeterEvent extends MeterOutboxItem {
  parkedAt: string;
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
  aggregateId: strOrNull(r.aggregate_id),
  firstAttemptAt: strOrNull(r.first_attempt_at),
});

export function meterOutboxRepository(db: SqlDatabase) {
  return {
    /** The oldest unsent, unparked events, at most `limit`. */
    async pending(limit: number): Promise<MeterOutboxItem[]> {
      const rows = await db.all(
        `SELECT event_id, customer_id, ts, value, attempts, aggregate_id, first_attempt_at FROM meter_outbox
         WHERE sent_at IS NULL AND parked_at IS NULL ORDER BY created_at, event_id LIMIT ?`,
        [limit],
      );
      return rows.map(item);
    },

    /**
     * Put every ungrouped, never-sent pending row of this customer and second
     * in the aggregate `aggregateId` (a fresh id: rows another process grouped
     * first keep theirs, and a row queued later joins a later aggregate).
     */
    async groupSecond(customerId: string, timestamp: number, aggregateId: string): Promise<void> {
      await db.run(
        `UPDATE meter_outbox SET aggregate_id = ?
         WHERE customer_id = ? AND ts = ? AND aggregate_id IS NULL AND first_attempt_at IS NULL AND sent_at IS NULL AND parked_at IS NULL`,
        [aggregateId, customerId, timestamp],
      );
    },

    /** Rows sent alone before aggregates existed (attempted, in none) stay alone: each its own aggregate, named by its event id. */
    async keepAlone(eventIds: readonly string[]): Promise<void> {
      if (!eventIds.length) return;
      await db.run(`UPDATE meter_outbox SET aggregate_id = event_id WHERE event_id IN (${placeholders(eventIds.length)}) AND aggregate_id IS NULL`, [
        ...eventIds,
      ]);
    },

    /** The aggregates these rows are in, each with its pending rows summed (rows of none are left out). */
    async aggregatesOf(eventIds: readonly string[]): Promise<MeterAggregate[]> {
      if (!eventIds.length) return [];
      const rows = await db.all(
        `SELECT aggregate_id, MIN(customer_id) AS customer_id, MIN(ts) AS ts, SUM(value) AS value, COUNT(*) AS n FROM meter_outbox
         WHERE aggregate_id IN (SELECT aggregate_id FROM meter_outbox WHERE event_id IN (${placeholders(eventIds.length)}))
           AND sent_at IS NULL AND parked_at IS NULL
         GROUP BY aggregate_id ORDER BY MIN(created_at), aggregate_id`,
        [...eventIds],
      );
      return rows.map((r) => ({
        aggregateId: String(r.aggregate_id),
        customerId: String(r.customer_id),
        timestamp: num(r.ts),
        value: num(r.value),
        rows: num(r.n),
      }));
    },

    /** Note that these events are being sent now (the first time is kept: it starts the provider's de-duplication window). */
    async markAttempted(ids: readonly string[], by: OutboxRows = 'event'): Promise<void> {
      if (!ids.length) return;
      await db.run(`UPDATE meter_outbox SET first_attempt_at = COALESCE(first_attempt_at, ?) WHERE ${column(by)} IN (${placeholders(ids.length)})`, [
        now(),
        ...ids,
      ]);
    },

    async markSent(ids: readonly string[], by: OutboxRows = 'event'): Promise<void> {
      if (!ids.length) return;
      await db.run(`UPDATE meter_outbox SET sent_at = ? WHERE ${column(by)} IN (${placeholders(ids.length)})`, [now(), ...ids]);
    },

    /** A transient failure (outage, network, rate limit): the rows stay pending, no attempt is counted. */
    async markDeferred(ids: readonly string[], error: string, by: OutboxRows = 'event'): Promise<void> {
      if (!ids.length) return;
      await db.run(`UPDATE meter_outbox SET last_error = ? WHERE ${column(by)} IN (${placeholders(ids.length)})`, [error.slice(0, 500), ...ids]);
    },

    /** The provider refused these events for good: park them with the reason. */
    async park(ids: readonly string[], error: string, by: OutboxRows = 'event'): Promise<void> {
      if (!ids.length) return;
      await db.run(
        `UPDATE meter_outbox SET attempts = attempts + 1, last_error = ?, parked_at = ? WHERE ${column(by)} IN (${placeholders(ids.length)}) AND sent_at IS NULL`,
        [error.slice(0, 500), now(), ...ids],
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
        `SELECT event_id, customer_id, ts, value, attempts, aggregate_id, parked_at, first_attempt_at, last_error FROM meter_outbox
         WHERE sent_at IS NULL AND parked_at IS NOT NULL ORDER BY created_at, event_id LIMIT ?`,
        [limit],
      );
      return rows.map((r) => ({
        ...item(r),
        parkedAt: String(r.parked_at),
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
