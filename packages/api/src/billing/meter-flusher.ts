// Usage to Stripe: drains the state store's meter outbox (filled by
// store.usage.record in the same transaction as the usage event) into
// Billing Meter events, in batches, on an interval and once more when the app closes.
//
// The calls of one customer in one second are one meter event, their values
// summed (docs/decisions/0435-meter-events-per-customer-second.md).
// Exactly-once billing rests on the identifier: each outbox row is put in an
// aggregate once, before its first send, the aggregate's id is sent as the
// meter event `identifier`, and Stripe accepts an identifier once.
// A send whose answer was lost is retried with the same identifier; Stripe
// then rejects the duplicate, which means "already recorded" and is marked
// sent. Pending rows live in the store, so they survive a restart.
//
// Failures are of two kinds. The provider's permanent refusal of an event
// (400/402/404/422 that is not a duplicate) parks that row at once: kept with
// its error, never retried, counted in `stats().parked`, replayed only by an
// operator (`npm run cli -- meter replay`). Anything else (network errors,
// timeouts, 401/403 of a wrong secret key, 409, 429, 5xx) is an outage: the
// rows stay pending with no attempt counted, and the background timer backs
// off exponentially (STRIPE_METER_FLUSH_SECONDS doubling up to
// MAX_BACKOFF_MS) until a flush goes through again, so a long outage parks
// nothing and does not hammer the provider.
//
// Several processes (cluster workers, replicas) each start a flusher on one
// store; the background flushes run only in the holder of the
// `meter-flusher` lease (state/repositories/leases.ts), so pending rows are
// sent by one process, not once per process (the identifier would make the
// copies harmless, but each costs a Stripe call and counts against its rate
// limit). The last flush on stop runs in every process, lease or not: its
// own last events must not wait for the holder's next tick, and a row the
// holder sends at the same moment comes back as a duplicate (counted as
// sent). An explicit flush() (CLI, tests) runs regardless too.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { StateStore } from '../state/store.ts';
import type { MeterAggregate, MeterOutboxItem } from '../state/repositories/meter-outbox.ts';
import { stripeErrorInfo, type StripeClient } from './stripe-client.ts';

export interface MeterFlusherOptions {
  store: StateStore;
  stripe: StripeClient;
  eventName: string;
  log: FastifyBaseLogger;
  /** Outbox rows per batch (default 100). */
  batchSize?: number;
  /** Meter events in flight at once (default 8). */
  concurrency?: number;
  /** Batches per flush at most, so one flush ends even while some rows keep failing (default 50). */
  maxBatches?: number;
}

export interface FlushResult {
  sent: number;
  /** Of `sent`: rejected by Stripe as already recorded (a retry of a delivered event). */
  duplicates: number;
  /** Not sent: deferred by an outage plus parked. */
  failed: number;
  /** Of `failed`: refused by Stripe for good, now parked. */
  parked: number;
}

/** The longest wait between background flushes during an outage. */
export const MAX_BACKOFF_MS = 5 * 60_000;

const LEASE = 'meter-flusher';
/** The lease outlives a few healthy intervals; a holder that died is replaced after it. */
const MIN_LEASE_MS = 60_000;

const NOTHING: FlushResult = { sent: 0, duplicates: 0, failed: 0, parked: 0 };

/** Stripe's answers that refuse this event for good (the same request would be refused again). */
export function isPermanentRefusal(err: unknown): boolean {
  const status = stripeErrorInfo(err)?.statusCode;
  return status === 400 || status === 402 || status === 404 || status === 422;
}

/** Stripe's answer to a repeated identifier: the event is already recorded. */
export function isDuplicateMeterEvent(err: unknown): boolean {
  const info = stripeErrorInfo(err);
  if (info?.statusCode !== 400) return false;
  return info.code === 'resource_already_exists' || /already exists with identifier/i.test(info.message);
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

export class MeterFlusher {
  private readonly store: StateStore;
  private readonly stripe: StripeClient;
  private readonly eventName: string;
  private readonly log: FastifyBaseLogger;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly maxBatches: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<FlushResult> | null = null;
  private stopped = false;
  /** Consecutive background flushes that met an outage (0: healthy). */
  private outages = 0;
  private leaseMs = MIN_LEASE_MS;
  readonly holder = `${process.pid}-${randomUUID()}`;

  constructor(options: MeterFlusherOptions) {
    this.store = options.store;
    this.stripe = options.stripe;
    this.eventName = options.eventName;
    this.log = options.log;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 8;
    this.maxBatches = options.maxBatches ?? 50;
  }

  /**
   * Flush every `seconds` in the background (the timer never keeps the
   * process alive); after a flush that met an outage and sent nothing, the
   * next one waits twice as long, up to MAX_BACKOFF_MS.
   */
  start(seconds: number): void {
    if (this.timer || seconds <= 0 || this.stopped) return;
    const base = seconds * 1000;
    this.leaseMs = Math.max(MIN_LEASE_MS, 3 * base);
    const schedule = () => {
      const delay = this.outages === 0 ? base : Math.min(MAX_BACKOFF_MS, base * 2 ** this.outages);
      this.timer = setTimeout(() => {
        this.flushAsLeader()
          .then(
            (r) => {
              if (r) this.outages = r.sent === 0 && r.failed > r.parked ? this.outages + 1 : 0;
            },
            (err) => {
              this.outages++;
              this.log.error({ error: err instanceof Error ? err.message : String(err) }, 'meter flush failed');
            },
          )
          .finally(() => {
            if (this.timer) schedule();
          });
      }, delay);
      this.timer.unref();
    };
    schedule();
  }

  /** Consecutive background flushes that met an outage (the backoff exponent). */
  get backoffLevel(): number {
    return this.outages;
  }

  /** Stop the timer, wait for a flush in progress, flush once more, and give the lease up. */
  async stop(): Promise<FlushResult> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => undefined);
    const result = await this.flush();
    this.stopped = true;
    await this.store.leases.release(LEASE, this.holder).catch(() => undefined);
    return result;
  }

  /** flush() when this process holds the lease (taken or renewed here); null when another holds it. */
  private async flushAsLeader(): Promise<FlushResult | null> {
    const now = Date.now();
    const leader = await this.store.leases.acquire(LEASE, this.holder, new Date(now).toISOString(), new Date(now + this.leaseMs).toISOString());
    return leader ? this.flush() : null;
  }

  /** Drain the outbox in batches until it is empty, a batch had failures, or maxBatches. One flush at a time. */
  flush(): Promise<FlushResult> {
    if (this.stopped) return Promise.resolve(NOTHING);
    if (this.running) return this.running;
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<FlushResult> {
    const total: FlushResult = { sent: 0, duplicates: 0, failed: 0, parked: 0 };
    for (let i = 0; i < this.maxBatches; i++) {
      const batch = await this.store.meterOutbox.pending(this.batchSize);
      if (batch.length === 0) break;
      const r = await this.sendBatch(batch);
      total.sent += r.sent;
      total.duplicates += r.duplicates;
      total.failed += r.failed;
      total.parked += r.parked;
      // Deferred rows stay pending and come first again: a batch that met an
      // outage ends the flush (the timer backs off); parked rows have left
      // the queue, so a batch of refusals does not stall the rows behind it.
      if (batch.length < this.batchSize || r.failed > r.parked) break;
    }
    if (total.sent || total.failed) this.log.info(total, 'meter events flushed');
    return total;
  }

  /**
   * The meter events of a batch: its rows not yet in an aggregate are
   * grouped by customer and second, each second with all its pending rows
   * (beyond the batch too), under a fresh id, so that no id can ever name
   * rows another process grouped; a row first sent alone before aggregates
   * existed (attempted, in none) stays alone under its event id, the
   * identifier it was sent with. Then every aggregate the batch touches,
   * with all its pending rows.
   */
  private async aggregatesOf(batch: MeterOutboxItem[]): Promise<MeterAggregate[]> {
    const seconds = new Map<string, { customerId: string; timestamp: number }>();
    const alone: string[] = [];
    for (const item of batch) {
      if (item.aggregateId !== null) continue;
      if (item.firstAttemptAt !== null) alone.push(item.eventId);
      else seconds.set(`${item.customerId}\u0000${item.timestamp}`, { customerId: item.customerId, timestamp: item.timestamp });
    }
    await this.store.meterOutbox.keepAlone(alone);
    for (const { customerId, timestamp } of seconds.values()) await this.store.meterOutbox.groupSecond(customerId, timestamp, `agg-${randomUUID()}`);
    return this.store.meterOutbox.aggregatesOf(batch.map((item) => item.eventId));
  }

  private async sendBatch(batch: MeterOutboxItem[]): Promise<FlushResult> {
    const aggregates = await this.aggregatesOf(batch);
    const sent: string[] = [];
    let sentRows = 0;
    const deferred = new Map<string, MeterAggregate[]>();
    const refused = new Map<string, MeterAggregate[]>();
    let duplicates = 0;
    await this.store.meterOutbox.markAttempted(
      aggregates.map((a) => a.aggregateId),
      'aggregate',
    );
    await pool(aggregates, this.concurrency, async (aggregate) => {
      try {
        await this.stripe.billing.meterEvents.create({
          event_name: this.eventName,
          identifier: aggregate.aggregateId,
          timestamp: aggregate.timestamp,
          payload: { stripe_customer_id: aggregate.customerId, value: String(aggregate.value) },
        });
        sent.push(aggregate.aggregateId);
        sentRows += aggregate.rows;
      } catch (err) {
        if (isDuplicateMeterEvent(err)) {
          duplicates += aggregate.rows;
          sent.push(aggregate.aggregateId);
          sentRows += aggregate.rows;
          return;
        }
        const info = stripeErrorInfo(err);
        const reason = info ? `${info.statusCode ?? 'network'} ${info.code ?? info.type}: ${info.message}` : String((err as Error)?.message ?? err);
        const bucket = isPermanentRefusal(err) ? refused : deferred;
        bucket.set(reason, [...(bucket.get(reason) ?? []), aggregate]);
      }
    });
    await this.store.meterOutbox.markSent(sent, 'aggregate');
    let failed = 0;
    let parked = 0;
    const rowsOf = (list: MeterAggregate[]) => list.reduce((n, a) => n + a.rows, 0);
    for (const [reason, list] of deferred) {
      failed += rowsOf(list);
      await this.store.meterOutbox.markDeferred(
        list.map((a) => a.aggregateId),
        reason,
        'aggregate',
      );
      this.log.warn({ count: rowsOf(list), meterEvents: list.length, reason }, 'meter events not delivered; will retry');
    }
    for (const [reason, list] of refused) {
      failed += rowsOf(list);
      parked += rowsOf(list);
      await this.store.meterOutbox.park(
        list.map((a) => a.aggregateId),
        reason,
        'aggregate',
      );
      this.log.error({ count: rowsOf(list), meterEvents: list.length, reason }, 'meter events refused by the provider: parked (npm run cli -- meter replay)');
    }
    return { sent: sentRows, duplicates, failed, parked };
  }
}
