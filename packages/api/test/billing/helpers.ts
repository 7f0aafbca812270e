// Shared steps of the billing tests: an app wired to a fake Stripe, webhook
// delivery, a completed checkout.
import type { FastifyInstance } from 'fastify';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { build, body } from '../helper.ts';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe-server.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { timeOrderedId } from '../../src/state/event-id.ts';
import { jstMonth } from '../../src/lib/time.ts';

export type T = { after(fn: () => unknown): void };

/**
 * A fake Stripe and an app configured against it (no flush timer unless
 * asked); billing redirects may also go to https://example.com.
 */
export async function billingApp(t: T, env: Record<string, string> = {}): Promise<{ app: FastifyInstance; fake: FakeStripe }> {
  const fake = await startFakeStripe(t);
  const app = await build(
    t,
    fake.env({ STRIPE_METER_FLUSH_SECONDS: '0', STRIPE_MAX_NETWORK_RETRIES: '0', BILLING_RETURN_URL_ORIGINS: 'https://example.com', ...env }),
  );
  return { app, fake };
}

/** POST a signed event to the webhook. */
export async function deliver(
  app: FastifyInstance,
  fake: FakeStripe,
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; timestamp?: number; secret?: string } = {},
) {
  const { payload, header, event } = fake.signedEvent(type, object, options);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/billing/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'payment-signature': header },
    payload,
  });
  return { res, event, payload, header };
}

/** Create a checkout through the API and have the fake complete it (paid, with a subscription). */
export async function paidCheckout(app: FastifyInstance, fake: FakeStripe) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/billing/checkout',
    payload: {
      success_url: `${app.config.publicBaseUrl}/ok?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${app.config.publicBaseUrl}/cancel`,
      customer_email: 'buyer@example.com',
    },
  });
  if (res.statusCode !== 200) throw new Error(`checkout failed: ${res.statusCode} ${res.body}`);
  const sessionId = body<{ session_id: string }>(res).session_id;
  const done = fake.completeSession(sessionId);
  return { sessionId, ...done };
}

export async function fromCheckout(app: FastifyInstance, sessionId: string) {
  return app.inject({ method: 'POST', url: '/v1/billing/keys/from-checkout', payload: { session_id: sessionId } });
}

/** Count rows of a state table (SQLite store only): for effects the StateStore interface does not read back. */
export function countRows(app: FastifyInstance, table: string, where = '1 = 1', params: (string | number)[] = []): number {
  const db = new DatabaseSync(path.join(app.config.dataDir, 'state.sqlite'), { readOnly: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...params) as { n: number };
    return Number(row.n);
  } finally {
    db.close();
  }
}

/** Each outbox row's aggregate (the meter event it is reported in; null before its first flush), by event id (SQLite store only). */
export function aggregateOf(app: FastifyInstance): Map<string, string | null> {
  const db = new DatabaseSync(path.join(app.config.dataDir, 'state.sqlite'), { readOnly: true });
  try {
    const rows = db.prepare('SELECT event_id, aggregate_id FROM meter_outbox').all() as { event_id: string; aggregate_id: string | null }[];
    return new Map(rows.map((r) => [r.event_id, r.aggregate_id]));
  } finally {
    db.close();
  }
}

/**
 * Billable usage of `customerId` queued as calls made `secondsAgo` (one call
 * per entry: repeat a second for several calls in it), without serving them:
 * the meter outbox rows of chosen seconds. Returns their event ids, in order.
 */
export async function queueUsage(app: FastifyInstance, customerId: string, secondsAgo: readonly number[]): Promise<string[]> {
  const { hash, prefix } = generateApiKey();
  const key = await app.state.keys.create({ keyHash: hash, prefix, tier: 'paid', customerId, subscriptionId: `sub_${prefix}` });
  const now = Math.floor(Date.now() / 1000);
  const entries = secondsAgo.map((ago) => {
    const at = new Date((now - ago) * 1000);
    return {
      capYen: null,
      event: {
        eventId: timeOrderedId(),
        keyId: key.id,
        customerId,
        tier: 'paid' as const,
        method: 'GET',
        route: '/v1/programs/search',
        status: 200,
        billable: true,
        amountYen: app.config.unitPriceYen,
        billingMonth: jstMonth(at),
        createdAt: at.toISOString(),
      },
    };
  });
  await app.state.usage.recordMany(entries);
  return entries.map((e) => e.event.eventId);
}

/**
 * Usage is recorded in an onResponse hook, which may finish after inject()
 * resolved: wait until the meter outbox holds `n` pending events.
 */
export async function waitForPending(app: FastifyInstance, n: number): Promise<void> {
  while ((await app.state.meterOutbox.pending(n + 1)).length < n) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Wait until the meter outbox has queued `n` events in all, pending or
 * already sent: while a background flusher runs, an event may be sent
 * before it is ever seen pending, so counting pending rows could wait forever.
 */
export async function waitForQueued(app: FastifyInstance, n: number): Promise<void> {
  while (countRows(app, 'meter_outbox') < n) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Fault injection inside the store's transactions: the next `times` calls of
 * `repository.method` made in an `atomically` block throw (a crash at that
 * point); the transaction rolls back as a real failure would.
 */
export function failInTransaction(app: FastifyInstance, repository: 'keys' | 'issuance', method: string, times = 1): void {
  const atomically = app.state.atomically;
  let left = times;
  app.state.atomically = (fn) =>
    atomically((tx) => {
      const real = tx[repository] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const wrapped = {
        ...real,
        [method]: async (...args: unknown[]) => {
          if (left-- > 0) throw new Error('connection lost');
          return real[method](...args);
        },
      };
      return fn({ ...tx, [repository]: wrapped });
    });
}
