// Usage events and the monthly spend they add up to. One event is written in
// one transaction with its spend and its meter-outbox row; `recordMany`
// writes several in one transaction with the same statements (the group
// commit of state/group-commit.ts runs them that way), each event still
// guarded by its own cap. Events carry key ids and customer ids, never a raw
// key or a client address.
//
// The cap is kept exactly, even when several processes share the store, in
// one of two ways:
// - reserved before serving (`reserve`, plugins/limits.ts): the cap is read
//   from the key's row and one guarded statement on the month's row, in the
//   same transaction, adds the price to `reserved_yen` only if
//   spent + reserved + price <= cap; the request's usage event then moves it
//   into `spent_yen` (a 2xx) or gives it back (any other answer). Every
//   reservation is also a row with an expiry, so a process that dies between
//   reserving and settling leaks nothing for long: `sweepExpiredReservations`
//   gives back what expired (docs/decisions/0093-spend-cap-reservation.md);
// - or, for an event recorded without a reservation, guarded at write time:
//   one atomic `INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING`, and
//   the event is refused (false) when it would pass the cap.
import { jstDate } from '../../lib/time.ts';
import { num, numOrNull, placeholders, type Queryer, type SqlDatabase } from '../sql.ts';
import { queueMeterEvent, queueMeterEvents } from './meter-outbox.ts';
import type { Tier } from './keys.ts';

/** How long a reservation stands unsettled before a sweep gives it back: far longer than any request may take. */
export const RESERVATION_TTL_MS = 5 * 60_000;

/** Spend held for one request of a capped key until its answer is known. */
export interface SpendReservation {
  id: string;
  keyId: number;
  billingMonth: string;
  amountYen: number;
}

/**
 * The answer of `reserve`, with the cap read in its transaction: the
 * reservation (null when the key is uncapped: nothing to hold), or the
 * month's spend (spent and reserved by others) that left no room.
 */
export type ReserveResult =
  | { reserved: true; capYen: number | null; reservation: SpendReservation | null }
  | { reserved: false; capYen: number; spentYen: number };

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
  /**
   * The spend reserved for this request before it was served: a billable
   * event confirms it as spent (no cap check: the reservation was the
   * check), any other event releases it.
   */
  reservations?: readonly SpendReservation[];
}

export interface UsageSummary {
  requests: number;
  billableRequests: number;
  spendYen: number;
  perDay: { date: string; requests: number; billable: number }[];
  topEndpoints: { route: string; requests: number }[];
}

/** Insert the event row; false when its id was already recorded. */
async function insertEvent(q: Queryer, event: UsageEvent, when: Date): Promise<boolean> {
  const inserted = await q.all(
    `INSERT INTO usage_events (event_id, key_id, customer_id, tier, method, route, status, billable, amount_yen, billing_month, day_jst, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
    [
      event.eventId,
      event.keyId,
      event.customerId,
      event.tier,
      event.method,
      event.route,
      event.status,
      event.billable ? 1 : 0,
      event.billable ? event.amountYen : 0,
      event.billingMonth,
      jstDate(when),
      event.createdAt,
    ],
  );
  return inserted.length > 0;
}

/**
 * Write one event inside the caller's transaction; false when its spend would
 * pass the cap (then nothing of it remains). A replayed event id changes nothing.
 */
async function writeEvent(q: Queryer, { event, capYen, reservations }: UsageEntry): Promise<boolean> {
  const created = new Date(event.createdAt);
  const when = Number.isNaN(created.getTime()) ? new Date() : created;
  if (reservations?.length) return writeReservedEvent(q, event, reservations, when);
  if (!(await insertEvent(q, event, when))) return true; // already recorded: a retry changes nothing
  if (event.billable && event.amountYen > 0 && event.keyId !== null) {
    const spent = await q.all(
      `INSERT INTO monthly_spend (key_id, billing_month, spent_yen)
       SELECT CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER)
       WHERE CAST(? AS INTEGER) IS NULL OR CAST(? AS INTEGER) <= CAST(? AS INTEGER)
       ON CONFLICT (key_id, billing_month) DO UPDATE SET spent_yen = monthly_spend.spent_yen + excluded.spent_yen
       WHERE CAST(? AS INTEGER) IS NULL OR monthly_spend.spent_yen + monthly_spend.reserved_yen + excluded.spent_yen <= CAST(? AS INTEGER)
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

/**
 * Take reservations back: delete their rows and subtract what was still held
 * from each month's `reserved_yen`, adding `confirmYen` (the event's price)
 * to `spent_yen` when the request was billed. A reservation a sweep already
 * gave back (it outlived RESERVATION_TTL_MS) holds nothing any more; the
 * billed price is added all the same: a served call is always billed.
 */
async function settleReservations(
  q: Queryer,
  reservations: readonly SpendReservation[],
  confirm: { keyId: number; billingMonth: string; amountYen: number } | null,
): Promise<void> {
  const held = new Map<string, { keyId: number; billingMonth: string; yen: number }>();
  for (const r of reservations) {
    const rows = await q.all<{ amount_yen: unknown }>('DELETE FROM spend_reservations WHERE id = ? RETURNING amount_yen', [r.id]);
    if (!rows.length) continue;
    const month = `${r.keyId}\u0000${r.billingMonth}`;
    const entry = held.get(month) ?? { keyId: r.keyId, billingMonth: r.billingMonth, yen: 0 };
    entry.yen += num(rows[0].amount_yen);
    held.set(month, entry);
  }
  if (confirm) {
    const month = `${confirm.keyId}\u0000${confirm.billingMonth}`;
    const entry = held.get(month) ?? { keyId: confirm.keyId, billingMonth: confirm.billingMonth, yen: 0 };
    held.delete(month);
    await q.run(
      `INSERT INTO monthly_spend (key_id, billing_month, spent_yen, reserved_yen) VALUES (?, ?, ?, 0)
       ON CONFLICT (key_id, billing_month) DO UPDATE SET spent_yen = monthly_spend.spent_yen + excluded.spent_yen, reserved_yen = monthly_spend.reserved_yen - CAST(? AS INTEGER)`,
      [entry.keyId, entry.billingMonth, confirm.amountYen, entry.yen],
    );
  }
  for (const entry of held.values()) {
    await q.run('UPDATE monthly_spend SET reserved_yen = reserved_yen - ? WHERE key_id = ? AND billing_month = ?', [
      entry.yen,
      entry.keyId,
      entry.billingMonth,
    ]);
  }
}

/** An event whose spend was reserved before serving: confirm the reservation (billable) or release it. */
async function writeReservedEvent(q: Queryer, event: UsageEvent, reservations: readonly SpendReservation[], when: Date): Promise<boolean> {
  const inserted = await insertEvent(q, event, when);
  const billed = inserted && event.billable && event.amountYen > 0 && event.keyId !== null;
  await settleReservations(q, reservations, billed ? { keyId: event.keyId!, billingMonth: event.billingMonth, amountYen: event.amountYen } : null);
  if (inserted && event.billable && event.customerId) {
    await queueMeterEvent(q, { eventId: event.eventId, customerId: event.customerId, timestamp: Math.floor(when.getTime() / 1000), value: event.units ?? 1 });
  }
  return true;
}

/** An entry whose spend is checked at write time (capped, billable, nothing reserved). */
const guardedAtWrite = ({ event, capYen, reservations }: UsageEntry): boolean =>
  event.billable && event.amountYen > 0 && capYen !== null && !reservations?.length;

const EVENT_COLUMNS = 12;

/**
 * Entries none of which is guarded at write time, in a fixed number of
 * statements whatever their count (a group commit's batch on PostgreSQL
 * costs five round trips, not three per event): one multi-row insert of the
 * events, one delete of their reservations, one spend update per key and
 * month, one multi-row insert into the meter outbox. Same outcome as
 * writing them one by one: a replayed event id changes nothing, a billed
 * event confirms its reservation, any other releases it.
 */
async function writeUnguarded(q: Queryer, entries: readonly UsageEntry[]): Promise<void> {
  const fresh = new Map<string, { event: UsageEvent; when: Date }>();
  for (const { event } of entries) {
    if (fresh.has(event.eventId)) continue; // the same id twice in one batch is written once
    const created = new Date(event.createdAt);
    fresh.set(event.eventId, { event, when: Number.isNaN(created.getTime()) ? new Date() : created });
  }
  const rows = [...fresh.values()];
  const inserted = new Set<string>();
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const values = chunk.map(() => `(${placeholders(EVENT_COLUMNS)})`).join(', ');
    const returned = await q.all<{ event_id: unknown }>(
      `INSERT INTO usage_events (event_id, key_id, customer_id, tier, method, route, status, billable, amount_yen, billing_month, day_jst, created_at)
       VALUES ${values} ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      chunk.flatMap(({ event, when }) => [
        event.eventId,
        event.keyId,
        event.customerId,
        event.tier,
        event.method,
        event.route,
        event.status,
        event.billable ? 1 : 0,
        event.billable ? event.amountYen : 0,
        event.billingMonth,
        jstDate(when),
        event.createdAt,
      ]),
    );
    for (const r of returned) inserted.add(String(r.event_id));
  }
  const billed = rows.filter(({ event }) => inserted.has(event.eventId) && event.billable);

  // Spend per key and month: what the billed events cost, and what their reservations held.
  const months = new Map<string, { keyId: number; billingMonth: string; spent: number; held: number }>();
  const month = (keyId: number, billingMonth: string) => {
    const id = `${keyId}\u0000${billingMonth}`;
    let m = months.get(id);
    if (!m) months.set(id, (m = { keyId, billingMonth, spent: 0, held: 0 }));
    return m;
  };
  const reservationIds = entries.flatMap((e) => (e.reservations ?? []).map((r) => r.id));
  for (let i = 0; i < reservationIds.length; i += 500) {
    const chunk = reservationIds.slice(i, i + 500);
    const taken = await q.all<{ key_id: unknown; billing_month: unknown; amount_yen: unknown }>(
      `DELETE FROM spend_reservations WHERE id IN (${placeholders(chunk.length)}) RETURNING key_id, billing_month, amount_yen`,
      chunk,
    );
    for (const r of taken) month(num(r.key_id), String(r.billing_month)).held += num(r.amount_yen);
  }
  for (const { event } of billed) if (event.amountYen > 0 && event.keyId !== null) month(event.keyId, event.billingMonth).spent += event.amountYen;
  for (const m of months.values()) {
    await q.run(
      `INSERT INTO monthly_spend (key_id, billing_month, spent_yen, reserved_yen) VALUES (?, ?, ?, 0)
       ON CONFLICT (key_id, billing_month) DO UPDATE SET spent_yen = monthly_spend.spent_yen + excluded.spent_yen, reserved_yen = monthly_spend.reserved_yen - CAST(? AS INTEGER)`,
      [m.keyId, m.billingMonth, m.spent, m.held],
    );
  }
  await queueMeterEvents(
    q,
    billed
      .filter(({ event }) => event.customerId)
      .map(({ event, when }) => ({
        eventId: event.eventId,
        customerId: event.customerId!,
        timestamp: Math.floor(when.getTime() / 1000),
        value: event.units ?? 1,
      })),
  );
}

export type UsageRepository = ReturnType<typeof usageRepository>;

export function usageRepository(db: SqlDatabase) {
  /** Record several events in ONE transaction; result i says whether event i stayed within its cap. */
  async function recordMany(entries: readonly UsageEntry[]): Promise<boolean[]> {
    if (!entries.length) return [];
    return db.tx(async (q) => {
      if (!entries.some(guardedAtWrite)) {
        await writeUnguarded(q, entries);
        return entries.map(() => true);
      }
      // Some event's cap is checked as it is written: one by one, in order.
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
    async record(event: UsageEvent, capYen: number | null, reservations?: readonly SpendReservation[]): Promise<boolean> {
      const [recorded] = await recordMany([{ event, capYen, reservations }]);
      return recorded;
    },

    recordMany,

    /**
     * Reserve `amountYen` of the key's month before serving a call, within
     * the key's cap as stored now (read in this transaction: a cached record
     * may be stale), in one guarded statement: only if spent + reserved +
     * amount stays within it. An uncapped key reserves nothing. The request's
     * usage event settles it (`reservations` of its UsageEntry); an unsettled
     * one expires after `ttlMs`.
     */
    async reserve(keyId: number, billingMonth: string, amountYen: number, id: string, ttlMs = RESERVATION_TTL_MS): Promise<ReserveResult> {
      return db.tx(async (q) => {
        const [key] = await q.all<{ monthly_cap_yen: unknown }>('SELECT monthly_cap_yen FROM api_keys WHERE id = ?', [keyId]);
        const capYen = key ? numOrNull(key.monthly_cap_yen) : null;
        if (capYen === null) return { reserved: true, capYen, reservation: null };
        const rows = await q.all(
          `INSERT INTO monthly_spend (key_id, billing_month, spent_yen, reserved_yen)
           SELECT CAST(? AS INTEGER), CAST(? AS TEXT), 0, CAST(? AS INTEGER) WHERE CAST(? AS INTEGER) <= CAST(? AS INTEGER)
           ON CONFLICT (key_id, billing_month) DO UPDATE SET reserved_yen = monthly_spend.reserved_yen + excluded.reserved_yen
           WHERE monthly_spend.spent_yen + monthly_spend.reserved_yen + excluded.reserved_yen <= CAST(? AS INTEGER)
           RETURNING spent_yen`,
          [keyId, billingMonth, amountYen, amountYen, capYen, capYen],
        );
        if (!rows.length) {
          const [held] = await q.all<{ spent_yen: unknown; reserved_yen: unknown }>(
            'SELECT spent_yen, reserved_yen FROM monthly_spend WHERE key_id = ? AND billing_month = ?',
            [keyId, billingMonth],
          );
          return { reserved: false, capYen, spentYen: held ? num(held.spent_yen) + num(held.reserved_yen) : 0 };
        }
        await q.run('INSERT INTO spend_reservations (id, key_id, billing_month, amount_yen, expires_at) VALUES (?, ?, ?, ?, ?)', [
          id,
          keyId,
          billingMonth,
          amountYen,
          new Date(Date.now() + ttlMs).toISOString(),
        ]);
        return { reserved: true, capYen, reservation: { id, keyId, billingMonth, amountYen } };
      });
    },

    /** Give reservations back without billing (a request that ends without a usage event). */
    release(reservations: readonly SpendReservation[]): Promise<void> {
      if (!reservations.length) return Promise.resolve();
      return db.tx((q) => settleReservations(q, reservations, null));
    },

    /**
     * Give back every reservation that expired unsettled (its process died
     * between reserving and answering); returns how many. Safe to run from
     * several processes at once: each row is deleted, and counted, once.
     */
    async sweepExpiredReservations(at = new Date()): Promise<number> {
      return db.tx(async (q) => {
        const expired = await q.all<{ id: unknown; key_id: unknown; billing_month: unknown; amount_yen: unknown }>(
          `SELECT id, key_id, billing_month, amount_yen FROM spend_reservations WHERE expires_at < ?${db.skipLocked}`,
          [at.toISOString()],
        );
        await settleReservations(
          q,
          expired.map((r) => ({ id: String(r.id), keyId: num(r.key_id), billingMonth: String(r.billing_month), amountYen: num(r.amount_yen) })),
          null,
        );
        return expired.length;
      });
    },

    /** Yen held by unsettled reservations of a key in a month. */
    async reservedYen(keyId: number, billingMonth: string): Promise<number> {
      const rows = await db.all<{ reserved_yen: unknown }>('SELECT reserved_yen FROM monthly_spend WHERE key_id = ? AND billing_month = ?', [
        keyId,
        billingMonth,
      ]);
      return rows.length ? num(rows[0].reserved_yen) : 0;
    },

    /** Yen spent by a key in a Japan-time month `YYYY-MM`. */
    async monthlySpend(keyId: number, billingMonth: string): Promise<number> {
      const rows = await db.all<{ spent_yen: unknown }>('SELECT spent_yen FROM monthly_spend WHERE key_id = ? AND billing_month = ?', [keyId, billingMonth]);
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
