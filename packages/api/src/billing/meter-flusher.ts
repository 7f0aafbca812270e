// Usage to Stripe: drains the state store's meter outbox (filled by
// store.usage.record in the same transaction as the usage event) into
// Billing Meter events, in batches, on an interval and once more when the app closes.
//
// Exactly-once billing rests on the identifier: each outbox row's eventId is
// sent as the meter event `identifier`, and Stripe accepts an identifier once.
// A send whose answer was lost is retried with the same identifier; Stripe
// then rejects the duplicate, which means "already recorded" and is marked
// sent. Pending rows live in the store, so they survive a restart.
import type { FastifyBaseLogger } from 'fastify';
import type { StateStore } from '../state/store.ts';
import type { MeterOutboxItem } from '../state/repositories/meter-outbox.ts';
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
  failed: number;
}

/** Stripe's answer to a repeated identifier: the event is already recorded. */
export function isDuplicateMeterEvent(err: unknown): boolean {
  const info = stripeErrorInfo(err);
  if (!info || info.statusCode !== 400) return false;
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

  constructor(options: MeterFlusherOptions) {
    this.store = options.store;
    this.stripe = options.stripe;
    this.eventName = options.eventName;
    this.log = options.log;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 8;
    this.maxBatches = options.maxBatches ?? 50;
  }

  /** Flush every `seconds` in the background (the timer never keeps the process alive). */
  start(seconds: number): void {
    if (this.timer || seconds <= 0) return;
    this.timer = setInterval(() => {
      this.flush().catch((err) => this.log.error({ error: err instanceof Error ? err.message : String(err) }, 'meter flush failed'));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stop the timer, wait for a flush in progress, then flush once more. */
  async stop(): Promise<FlushResult> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => undefined);
    const result = await this.flush();
    this.stopped = true;
    return result;
  }

  /** Drain the outbox in batches until it is empty, a batch had failures, or maxBatches. One flush at a time. */
  flush(): Promise<FlushResult> {
    if (this.stopped) return Promise.resolve({ sent: 0, duplicates: 0, failed: 0 });
    if (this.running) return this.running;
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<FlushResult> {
    const total: FlushResult = { sent: 0, duplicates: 0, failed: 0 };
    for (let i = 0; i < this.maxBatches; i++) {
      const batch = await this.store.meterOutbox.pending(this.batchSize);
      if (batch.length === 0) break;
      const r = await this.sendBatch(batch);
      total.sent += r.sent;
      total.duplicates += r.duplicates;
      total.failed += r.failed;
      // Failed rows stay pending and come first again. A full batch that made
      // progress goes on (a permanently refused row cannot stall the rest); a
      // batch where nothing went through (an outage) waits for the next flush.
      if (batch.length < this.batchSize || r.sent === 0) break;
    }
    if (total.sent || total.failed) this.log.info(total, 'meter events flushed');
    return total;
  }

  private async sendBatch(batch: MeterOutboxItem[]): Promise<FlushResult> {
    const sent: string[] = [];
    const failed = new Map<string, string[]>();
    let duplicates = 0;
    await pool(batch, this.concurrency, async (item) => {
      try {
        await this.stripe.billing.meterEvents.create({
          event_name: this.eventName,
          identifier: item.eventId,
          timestamp: item.timestamp,
          payload: { stripe_customer_id: item.customerId, value: String(item.value) },
        });
        sent.push(item.eventId);
      } catch (err) {
        if (isDuplicateMeterEvent(err)) {
          duplicates++;
          sent.push(item.eventId);
          return;
        }
        const info = stripeErrorInfo(err);
        const reason = info ? `${info.statusCode ?? 'network'} ${info.code ?? info.type}: ${info.message}` : String((err as Error)?.message ?? err);
        const ids = failed.get(reason) ?? [];
        ids.push(item.eventId);
        failed.set(reason, ids);
      }
    });
    await this.store.meterOutbox.markSent(sent);
    let failedCount = 0;
    for (const [reason, ids] of failed) {
      failedCount += ids.length;
      await this.store.meterOutbox.markFailed(ids, reason);
      this.log.warn({ count: ids.length, reason }, 'meter events not accepted; will retry');
    }
    return { sent: sent.length, duplicates, failed: failedCount };
  }
}
