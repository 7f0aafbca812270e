// The outbound worker: delivers the webhook outbox, composes due e-mail
// digests and sends the mail outbox. It runs in exactly one process at a
// time however many workers and replicas start it: each tick first takes (or
// renews) the `outbound` lease in the state store and does nothing without
// it. Deliveries are also claimed (SKIP LOCKED), so even a lease-holder that
// stalled past its lease never sends a delivery that another has claimed.
// Failed attempts are retried with exponential backoff
// (WEBHOOK_RETRY_BASE_SECONDS, doubled each time, at most 6 h) up to
// WEBHOOK_MAX_ATTEMPTS; everything is in the state store, so retries survive
// a restart.
//
// No customer's receiver can stall the others (issue 24, M1):
// - webhooks and mail are two lanes: a tick runs both side by side, and a
//   lane still busy from the last tick does not hold the other back, so mail
//   never waits behind webhooks;
// - a webhook pass has a deadline (WEBHOOK_TIMEOUT_SECONDS): every attempt
//   ends by it (webhook-sender.ts destroys what is still open), and what the
//   pass claimed but had no time left for is given back unattempted;
// - claims are fair (state/repositories/webhook-endpoints.ts `claim`): one
//   attempt in flight per endpoint, keys in turn; an endpoint's deliveries
//   in one pass go one after another, and after an attempt that ran into the
//   deadline or could not connect, the endpoint's others wait for a later pass;
// - `stop` (SIGTERM) aborts the attempts in flight at once and gives their
//   deliveries back, so a shutdown never waits for a receiver.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { SERVER_VERSION } from '../config.ts';
import type { StateStore } from '../state/store.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../state/repositories/webhook-endpoints.ts';
import type { OutboundSecrets } from './secrets.ts';
import type { Mailer } from './mailer.ts';
import { sendWebhook, type SendResult } from './webhook-sender.ts';
import { digestMail, unsubscribeUrl } from './mail-content.ts';

const LEASE = 'outbound';
const MAX_DELAY_MS = 6 * 3600_000;
const BATCH = 20;

type WorkerConfig = Pick<
  Config,
  | 'outboundAllowPrivate'
  | 'webhookMaxAttempts'
  | 'webhookRetryBaseSeconds'
  | 'webhookDisableAfter'
  | 'webhookTimeoutSeconds'
  | 'digestIntervalHours'
  | 'outboundIntervalSeconds'
> & { baseUrl: string };

export interface TickReport {
  /** False when another process holds the lease (this tick did nothing). */
  leader: boolean;
  delivered: number;
  failed: number;
  /** Deliveries claimed but given back unattempted (the pass's deadline or a stop came first). */
  released: number;
  digests: number;
  mailed: number;
  /** Lanes this tick did not start because the last tick's pass of that lane was still running. */
  busy: ('webhooks' | 'mail')[];
}

/** Delay before attempt `attempts + 1` after `attempts` failures: base, 2·base, 4·base, … at most 6 h. */
export function retryDelayMs(baseSeconds: number, attempts: number): number {
  return Math.min(baseSeconds * 1000 * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

type Claimed = { delivery: WebhookDelivery; endpoint: WebhookEndpoint };

export class OutboundWorker {
  readonly holder = `${process.pid}-${randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private readonly lanes: { webhooks: Promise<void> | null; mail: Promise<void> | null } = { webhooks: null, mail: null };
  /** Aborted by `stop`: every attempt in flight ends at once. */
  private readonly stopping = new AbortController();

  private readonly store: StateStore;
  private readonly config: WorkerConfig;
  private readonly secrets: OutboundSecrets;
  private readonly mailer: Mailer | null;
  private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;

  constructor(
    store: StateStore,
    config: WorkerConfig,
    secrets: OutboundSecrets,
    mailer: Mailer | null,
    log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  ) {
    this.store = store;
    this.config = config;
    this.secrets = secrets;
    this.mailer = mailer;
    this.log = log;
  }

  /**
   * One tick: take the lease, then run a pass of each lane that is not still
   * running from an earlier tick, side by side; resolves when this tick's
   * passes have ended (each within its deadline).
   */
  async tick(now = new Date()): Promise<TickReport> {
    const report: TickReport = { leader: false, delivered: 0, failed: 0, released: 0, digests: 0, mailed: 0, busy: [] };
    if (this.stopping.signal.aborted) return report;
    const until = new Date(now.getTime() + this.leaseSeconds() * 1000).toISOString();
    if (!(await this.store.leases.acquire(LEASE, this.holder, now.toISOString(), until))) return report;
    report.leader = true;
    const passes: Promise<void>[] = [];
    const start = (lane: 'webhooks' | 'mail', pass: () => Promise<void>) => {
      if (this.lanes[lane]) {
        report.busy.push(lane);
        return;
      }
      const running = pass().finally(() => (this.lanes[lane] = null));
      this.lanes[lane] = running;
      passes.push(running);
    };
    start('webhooks', () => this.deliverWebhooks(now, until, report));
    if (this.mailer) {
      start('mail', async () => {
        await this.composeDigests(now, report);
        await this.sendMail(now, until, report);
      });
    }
    const outcomes = await Promise.allSettled(passes);
    const failure = outcomes.find((o) => o.status === 'rejected');
    if (failure) throw failure.reason;
    return report;
  }

  start(): void {
    const seconds = this.config.outboundIntervalSeconds;
    if (seconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.tick().catch((err) => this.log.error({ error: err instanceof Error ? err.message : String(err) }, 'outbound tick failed'));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stop the timer, abort the attempts in flight (their deliveries are given back), let the passes end, and give the lease up. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await Promise.allSettled([this.lanes.webhooks, this.lanes.mail]);
    await this.store.leases.release(LEASE, this.holder).catch(() => undefined);
  }

  private leaseSeconds(): number {
    return Math.max(30, this.config.outboundIntervalSeconds * 3, this.config.webhookTimeoutSeconds * 2);
  }

  private async deliverWebhooks(now: Date, until: string, report: TickReport): Promise<void> {
    const claimed = await this.store.webhookEndpoints.claim(this.holder, now.toISOString(), until, BATCH);
    if (!claimed.length) return;
    // The pass's deadline: every attempt ends by it, whatever its receiver does.
    const deadline = Date.now() + this.config.webhookTimeoutSeconds * 1000;
    const byEndpoint = new Map<string, Claimed[]>();
    for (const c of claimed) byEndpoint.set(c.endpoint.id, [...(byEndpoint.get(c.endpoint.id) ?? []), c]);
    await Promise.all(
      [...byEndpoint.values()].map(async (queue) => {
        // One attempt at a time per endpoint; a slow or unreachable endpoint gives the rest back.
        for (let i = 0; i < queue.length; i++) {
          const left = deadline - Date.now();
          const result = left > 0 && !this.stopping.signal.aborted ? await this.attempt(queue[i], left, now) : null;
          if (result === null || result.aborted) {
            const rest = queue.slice(i).map((c) => c.delivery.id);
            await this.store.webhookEndpoints.release(rest, this.holder);
            report.released += rest.length;
            return;
          }
          await this.settle(queue[i], result, now, report);
          if (!result.ok && result.status === null) {
            const rest = queue.slice(i + 1).map((c) => c.delivery.id);
            await this.store.webhookEndpoints.release(rest, this.holder);
            report.released += rest.length;
            return;
          }
        }
      }),
    );
  }

  private async attempt({ delivery, endpoint }: Claimed, timeoutMs: number, now: Date): Promise<SendResult> {
    try {
      const secret = this.secrets.unsealWebhookSecret(endpoint.id, endpoint.sealedSecret);
      return await sendWebhook(endpoint.url, delivery, secret, {
        allowPrivate: this.config.outboundAllowPrivate,
        timeoutMs: Math.min(timeoutMs, this.config.webhookTimeoutSeconds * 1000),
        userAgent: `jp-support-webhooks/${SERVER_VERSION}`,
        now,
        signal: this.stopping.signal,
      });
    } catch (err) {
      return { ok: false, status: null, error: err instanceof Error ? err.message : 'send failed' };
    }
  }

  private async settle({ delivery, endpoint }: Claimed, result: SendResult, now: Date, report: TickReport): Promise<void> {
    if (result.ok) {
      await this.store.webhookEndpoints.markDelivered(delivery.id, this.holder, result.status!);
      report.delivered++;
      return;
    }
    const attempts = delivery.attempts + 1;
    const retryAt =
      attempts >= this.config.webhookMaxAttempts ? null : new Date(now.getTime() + retryDelayMs(this.config.webhookRetryBaseSeconds, attempts)).toISOString();
    const { disabled } = await this.store.webhookEndpoints.markFailed(
      delivery.id,
      this.holder,
      { status: result.status, error: result.error ?? 'failed', retryAt },
      this.config.webhookDisableAfter,
      now.toISOString(),
    );
    report.failed++;
    // The endpoint id, never its URL or secret.
    this.log.warn({ endpoint: endpoint.id, delivery: delivery.id, attempts, disabled }, 'webhook delivery failed');
  }

  private async composeDigests(now: Date, report: TickReport): Promise<void> {
    const dueBefore = new Date(now.getTime() - this.config.digestIntervalHours * 3600_000).toISOString();
    for (const sub of await this.store.subscribers.dueForDigest(dueBefore, BATCH)) {
      const search = await this.store.savedSearches.get(sub.savedSearchId);
      const matches = await this.store.savedSearches.matches(sub.savedSearchId, { afterId: sub.lastMatchId, limit: 200 });
      if (!search || matches.length === 0) continue;
      const mail = digestMail(search.name, matches, this.config.baseUrl, unsubscribeUrl(this.config.baseUrl, this.secrets.token('unsubscribe', sub.id)));
      if (await this.store.subscribers.queueDigest(sub.id, sub.lastMatchId, matches[matches.length - 1].id, mail, now.toISOString())) report.digests++;
    }
  }

  private async sendMail(now: Date, until: string, report: TickReport): Promise<void> {
    for (const { email, sealedEmail } of await this.store.subscribers.claimEmails(this.holder, now.toISOString(), until, BATCH)) {
      if (this.stopping.signal.aborted) break; // the claims expire; nothing was sent
      try {
        const sub = await this.store.subscribers.get(email.subscriberId);
        if (!sub) continue;
        const body = JSON.parse(email.body) as { text: string; html: string };
        await this.mailer!.send({
          to: this.secrets.unsealEmail(sub.emailHash, sealedEmail),
          subject: email.subject,
          text: body.text,
          html: body.html,
          messageId: `<${email.id}@jp-support>`,
          unsubscribeUrl: unsubscribeUrl(this.config.baseUrl, this.secrets.token('unsubscribe', sub.id)),
        });
        await this.store.subscribers.markEmailSent(email.id, this.holder, now.toISOString());
        report.mailed++;
      } catch (err) {
        const attempts = email.attempts + 1;
        const retryAt =
          attempts >= this.config.webhookMaxAttempts
            ? null
            : new Date(now.getTime() + retryDelayMs(this.config.webhookRetryBaseSeconds, attempts)).toISOString();
        // An SMTP refusal may quote the address: it is blanked before the error is stored; the log names the mail id only.
        const error = err instanceof Error ? err.message.replace(/[^\s<>]+@[^\s<>]+/g, '<address>').slice(0, 200) : 'send failed';
        await this.store.subscribers.markEmailFailed(email.id, this.holder, error, retryAt, now.toISOString());
        this.log.warn({ mail: email.id, attempts }, 'mail send failed');
      }
    }
  }
}
