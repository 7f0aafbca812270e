// The outbound worker: delivers the webhook outbox, composes due e-mail
// digests and sends the mail outbox. It runs in exactly one process at a
// time however many workers and replicas start it: each tick first takes (or
// renews) the `outbound` lease in the state store and does nothing without
// it. Deliveries are also claimed one by one (SKIP LOCKED), so even a
// lease-holder that stalled past its lease never sends a delivery that
// another has claimed. Failed attempts are retried with exponential backoff
// (WEBHOOK_RETRY_BASE_SECONDS, doubled each time, at most 6 h) up to
// WEBHOOK_MAX_ATTEMPTS; everything is in the state store, so retries survive
// a restart.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { SERVER_VERSION } from '../config.ts';
import type { StateStore } from '../state/store.ts';
import type { OutboundSecrets } from './secrets.ts';
import type { Mailer } from './mailer.ts';
import { sendWebhook } from './webhook-sender.ts';
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
  digests: number;
  mailed: number;
}

/** Delay before attempt `attempts + 1` after `attempts` failures: base, 2·base, 4·base, … at most 6 h. */
export function retryDelayMs(baseSeconds: number, attempts: number): number {
  return Math.min(baseSeconds * 1000 * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

export class OutboundWorker {
  readonly holder = `${process.pid}-${randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<TickReport> | null = null;

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

  /** One pass (ticks never overlap in a process: a tick already running is awaited instead). */
  tick(now = new Date()): Promise<TickReport> {
    this.running ??= this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  start(): void {
    const seconds = this.config.outboundIntervalSeconds;
    if (seconds <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.tick().catch((err) => this.log.error({ error: err instanceof Error ? err.message : String(err) }, 'outbound tick failed'));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stop the timer, let a running tick finish, and give the lease up. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    await this.store.leases.release(LEASE, this.holder).catch(() => undefined);
  }

  private leaseSeconds(): number {
    return Math.max(30, this.config.outboundIntervalSeconds * 3, this.config.webhookTimeoutSeconds * 2);
  }

  private async pass(now: Date): Promise<TickReport> {
    const report: TickReport = { leader: false, delivered: 0, failed: 0, digests: 0, mailed: 0 };
    const at = now.toISOString();
    const until = new Date(now.getTime() + this.leaseSeconds() * 1000).toISOString();
    if (!(await this.store.leases.acquire(LEASE, this.holder, at, until))) return report;
    report.leader = true;
    await this.deliverWebhooks(now, until, report);
    if (this.mailer) {
      await this.composeDigests(now, report);
      await this.sendMail(now, until, report);
    }
    return report;
  }

  private async deliverWebhooks(now: Date, until: string, report: TickReport): Promise<void> {
    const claimed = await this.store.webhookEndpoints.claim(this.holder, now.toISOString(), until, BATCH);
    await Promise.all(
      claimed.map(async ({ delivery, endpoint }) => {
        let result;
        try {
          const secret = this.secrets.unsealWebhookSecret(endpoint.id, endpoint.sealedSecret);
          result = await sendWebhook(endpoint.url, delivery, secret, {
            allowPrivate: this.config.outboundAllowPrivate,
            timeoutMs: this.config.webhookTimeoutSeconds * 1000,
            userAgent: `jp-support-webhooks/${SERVER_VERSION}`,
            now,
          });
        } catch (err) {
          result = { ok: false, status: null, error: err instanceof Error ? err.message : 'send failed' };
        }
        if (result.ok) {
          await this.store.webhookEndpoints.markDelivered(delivery.id, this.holder, result.status!);
          report.delivered++;
          return;
        }
        const attempts = delivery.attempts + 1;
        const retryAt =
          attempts >= this.config.webhookMaxAttempts
            ? null
            : new Date(now.getTime() + retryDelayMs(this.config.webhookRetryBaseSeconds, attempts)).toISOString();
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
      }),
    );
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
