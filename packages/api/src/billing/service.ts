// The billing service: checkout, portal, key issuance from a paid checkout,
// the webhook receiver and the billing history. Routes stay thin and call
// this; it talks to Stripe (through the SDK client) and the state store.
//
// One key per subscription (DESIGN "Key issuance from a checkout"): whichever
// of the webhook (customer.subscription.created, safety net invoice.paid) and
// from-checkout comes first creates it. A webhook-issued key waits sealed
// (AES-256-GCM) for one reveal by from-checkout; every later from-checkout of
// that subscription answers 409. Creation races are settled by the store's
// unique issuance row: the loser revokes the key it created (never shown).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Repositories, StateStore } from '../state/store.ts';
import { generateApiKey } from '../access/keys.ts';
import { WEBHOOK_TOLERANCE_SECONDS, constructWebhookEvent, isSignatureError, stripeErrorInfo, type Stripe, type StripeClient } from './stripe-client.ts';
import { deriveKey, seal, serverSecret, unseal } from '../access/seal.ts';
import { utcSeconds } from '../lib/time.ts';

import { BillingError } from './errors.ts';
import { checkRedirect, redirectOrigins } from './redirects.ts';

export { BillingError };

export interface BillingInvoice {
  id: string;
  number: string | null;
  period_start: string | null;
  period_end: string | null;
  amount_due_yen: number;
  amount_paid_yen: number;
  currency: string;
  status: string;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  created: string;
}

export interface BillingHistory {
  invoices: BillingInvoice[];
  cached_at: string;
  customer_id: string | null;
}

export interface BillingServiceOptions {
  config: Readonly<Config>;
  store: StateStore;
  stripe: StripeClient | null;
  log: FastifyBaseLogger;
}

/** Subscription statuses after which the subscription never comes back (a tombstone is kept). */
const ENDED = new Set(['canceled', 'incomplete_expired']);
/** Subscription statuses for which a key is issued. */
const ISSUABLE = new Set(['active', 'trialing']);
const HISTORY_LIMIT = 24;
/** The one answer for a customer no portal can be opened for, whether the id exists or not. */
export const NO_PORTAL = 'No billing portal can be opened for this customer_id';

const isoFromUnix = (s: number | null | undefined): string | null => (typeof s === 'number' && Number.isFinite(s) ? utcSeconds(new Date(s * 1000)) : null);

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : v && typeof v.id === 'string' ? v.id : null);

/** Invoice -> BillingInvoice. JPY is a zero-decimal currency: amounts are already yen. */
export function toBillingInvoice(inv: Stripe.Invoice): BillingInvoice {
  return {
    id: inv.id ?? '',
    number: inv.number ?? null,
    period_start: isoFromUnix(inv.period_start),
    period_end: isoFromUnix(inv.period_end),
    amount_due_yen: Math.trunc(inv.amount_due ?? 0),
    amount_paid_yen: Math.trunc(inv.amount_paid ?? 0),
    currency: inv.currency ?? 'jpy',
    status: inv.status ?? 'draft',
    hosted_invoice_url: inv.hosted_invoice_url ?? null,
    invoice_pdf: inv.invoice_pdf ?? null,
    created: isoFromUnix(inv.created) ?? new Date(0).toISOString(),
  };
}

/** The subscription an invoice belongs to (current API: parent.subscription_details; older: invoice.subscription). */
function invoiceSubscription(inv: Stripe.Invoice): string | null {
  const fromParent = inv.parent?.subscription_details?.subscription;
  if (fromParent) return idOf(fromParent as string | { id: string });
  return idOf((inv as unknown as { subscription?: string | { id: string } | null }).subscription);
}

export class BillingService {
  readonly config: Readonly<Config>;
  readonly store: StateStore;
  readonly stripe: StripeClient | null;
  private readonly log: FastifyBaseLogger;
  private sealKey: Promise<Buffer> | null = null;

  constructor(options: BillingServiceOptions) {
    this.config = options.config;
    this.store = options.store;
    this.stripe = options.stripe;
    this.log = options.log;
  }

  get configured(): boolean {
    return this.stripe !== null;
  }

  private requireStripe(): StripeClient {
    if (!this.stripe) throw new BillingError(503, 'Payment provider is not configured on this server (STRIPE_SECRET_KEY is unset)');
    return this.stripe;
  }

  private keyForSealing(): Promise<Buffer> {
    this.sealKey ??= serverSecret(this.config.serverSecret, this.store).then((s) => deriveKey(s, 'key-reveal'));
    // A failed lookup is retried on the next call instead of being cached.
    this.sealKey.catch(() => (this.sealKey = null));
    return this.sealKey;
  }

  /**
   * Turn an SDK failure into a client-safe BillingError in our own words
   * (Stripe's text can name internal values and is only logged): Stripe's
   * 400 on one of the caller's own fields -> 400 naming that field; an
   * unknown id -> the `notFound` answer; configuration problems and outages -> 503.
   */
  private providerError(err: unknown, action: string, clientFields: { notFound?: BillingError; fields?: readonly string[] } = {}): BillingError {
    if (err instanceof BillingError) return err;
    const info = stripeErrorInfo(err);
    if (info?.code === 'resource_missing' && clientFields.notFound) return clientFields.notFound;
    const field = info?.param && clientFields.fields?.includes(info.param) ? info.param : null;
    if (info && info.type === 'StripeInvalidRequestError' && info.statusCode === 400 && field) {
      return new BillingError(400, `The payment provider refused the value of ${field}`);
    }
    this.log.error(
      { action, stripeStatus: info?.statusCode, stripeCode: info?.code, stripeType: info?.type, error: info ? info.message : String(err) },
      'payment provider call failed',
    );
    return new BillingError(503, 'The payment provider is unavailable; try again later');
  }

  // ----- checkout and portal -----

  async createCheckout(input: { successUrl: string; cancelUrl: string; customerEmail?: string }): Promise<{ url: string; sessionId: string }> {
    const stripe = this.requireStripe();
    const price = this.config.stripePriceId;
    if (!price) throw new BillingError(503, 'Payment provider is not fully configured on this server (STRIPE_PRICE_ID is unset)');
    const origins = redirectOrigins(this.config);
    checkRedirect('success_url', input.successUrl, origins);
    checkRedirect('cancel_url', input.cancelUrl, origins);
    try {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        // A metered price: no quantity (usage is reported through Billing Meter events).
        line_items: [{ price }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
      });
      if (!session.url) throw new Error('checkout session without url');
      return { url: session.url, sessionId: session.id };
    } catch (err) {
      throw this.providerError(err, 'checkout.sessions.create', { fields: ['success_url', 'cancel_url', 'customer_email'] });
    }
  }

  async createPortal(input: { customerId: string; returnUrl?: string }): Promise<{ url: string }> {
    const stripe = this.requireStripe();
    checkRedirect('return_url', input.returnUrl, redirectOrigins(this.config));
    // Only customers this service issued a key to; the provider's "no such customer" answers the same (no enumeration).
    if (!(await this.store.keys.customerKnown(input.customerId))) throw new BillingError(404, NO_PORTAL);
    try {
      const session = await stripe.billingPortal.sessions.create({
        customer: input.customerId,
        ...(input.returnUrl ? { return_url: input.returnUrl } : {}),
      });
      return { url: session.url };
    } catch (err) {
      throw this.providerError(err, 'billingPortal.sessions.create', { notFound: new BillingError(404, NO_PORTAL), fields: ['return_url'] });
    }
  }

  // ----- key issuance -----

  /**
   * Create the subscription's key unless one was issued already or the
   * subscription ended (its tombstone), inside the caller's transaction. With
   * `reveal`, the caller (from-checkout) shows the plaintext now and the
   * issuance is marked revealed; otherwise it is stashed sealed under `sealKey`.
   * Returns the plaintext when this call created the key, else null.
   */
  private async issueKey(tx: Repositories, sealKey: Buffer, subscriptionId: string, customerId: string | null, reveal: boolean): Promise<string | null> {
    if (await tx.subscriptions.isEnded(subscriptionId)) return null;
    if (await tx.issuance.find(subscriptionId)) return null;
    const { key, hash, prefix } = generateApiKey();
    const record = await tx.keys.create({ keyHash: hash, prefix, tier: 'paid', customerId, subscriptionId });
    const sealedKey = reveal ? null : seal(sealKey, key, `issuance:${subscriptionId}`);
    const won = await tx.issuance.create({
      subscriptionId,
      customerId,
      keyId: record.id,
      sealedKey,
      revealedAt: reveal ? new Date().toISOString() : null,
    });
    if (!won) {
      // Another path issued this subscription's key at the same moment: ours was never shown.
      await tx.keys.revoke(record.id);
      return null;
    }
    this.log.info({ keyPrefix: prefix, subscriptionId, via: reveal ? 'from-checkout' : 'webhook' }, 'paid key issued');
    return key;
  }

  /**
   * The subscription's current status at the provider (null when it does not
   * exist there). Read before issuing on paths whose event does not carry
   * the status (invoice.paid, from-checkout). Throws on an outage.
   */
  private async providerSubscriptionStatus(stripe: StripeClient, subscriptionId: string): Promise<string | null> {
    try {
      return (await stripe.subscriptions.retrieve(subscriptionId)).status;
    } catch (err) {
      if (stripeErrorInfo(err)?.code === 'resource_missing') return null;
      throw err;
    }
  }

  async keyFromCheckout(sessionId: string): Promise<{ apiKey: string; customerId: string }> {
    const stripe = this.requireStripe();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId);
    } catch (err) {
      throw this.providerError(err, 'checkout.sessions.retrieve', { notFound: new BillingError(404, 'Unknown checkout session') });
    }
    const subscriptionId = idOf(session.subscription as string | { id: string } | null);
    const customerId = idOf(session.customer as string | { id: string } | null);
    const paid = session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
    if (!paid || !subscriptionId || !customerId) {
      throw new BillingError(402, 'Checkout session is not paid: complete the payment first');
    }

    let status: string | null;
    try {
      status = await this.providerSubscriptionStatus(stripe, subscriptionId);
    } catch (err) {
      throw this.providerError(err, 'subscriptions.retrieve');
    }
    const sealKey = await this.keyForSealing();
    return this.store.atomically(async (tx) => {
      if ((await tx.subscriptions.isEnded(subscriptionId)) || (status !== null && ENDED.has(status))) {
        throw new BillingError(409, 'The subscription of this checkout has ended; no key is issued for it');
      }
      const issuance = await tx.issuance.find(subscriptionId);
      if (!issuance) {
        if (status === null || !ISSUABLE.has(status)) {
          throw new BillingError(402, 'The subscription of this checkout is not active yet: complete the payment first');
        }
        const created = await this.issueKey(tx, sealKey, subscriptionId, customerId, true);
        if (created) return { apiKey: created, customerId };
      }
      // The key exists (a webhook came first, or an earlier call): reveal the stash once.
      const revealed = await tx.issuance.reveal(subscriptionId);
      if (!revealed?.sealedKey) {
        throw new BillingError(409, 'An API key was already issued for this subscription; rotate it through the billing portal');
      }
      const record = await tx.keys.findById((await tx.issuance.find(subscriptionId))!.keyId);
      if (record?.status !== 'active') {
        throw new BillingError(409, 'The API key of this subscription was revoked (the subscription ended)');
      }
      const apiKey = unseal(sealKey, revealed.sealedKey, `issuance:${subscriptionId}`);
      return { apiKey, customerId: record.customerId ?? customerId };
    });
  }

  // ----- webhook -----

  /**
   * Verify and process one webhook delivery. Returns whether the event was
   * processed now (false: replay or ignored type). Bad signature -> 400 and
   * nothing is read or written.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ processed: boolean; type: string }> {
    const secret = this.config.stripeWebhookSecret;
    if (!secret) throw new BillingError(503, 'Webhook receiver is not configured on this server (STRIPE_WEBHOOK_SECRET is unset)');
    if (!signature) throw new BillingError(400, 'Missing payment-signature header');
    // The SDK refuses old signatures only; a timestamp from the future (a
    // clock far off, or a signature made to be replayed later) is refused too.
    const signedAt = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1]);
    if (Number.isFinite(signedAt) && signedAt - Date.now() / 1000 > WEBHOOK_TOLERANCE_SECONDS) {
      throw new BillingError(400, `payment-signature timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds in the future`);
    }
    let event: Stripe.Event;
    try {
      event = constructWebhookEvent(rawBody, signature, secret);
    } catch (err) {
      if (isSignatureError(err)) {
        const stale = /tolerance/i.test((err as Error).message);
        throw new BillingError(400, stale ? 'payment-signature timestamp is outside the 300-second tolerance' : 'Invalid payment-signature');
      }
      throw new BillingError(400, 'Webhook payload is not valid JSON');
    }
    if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object' || event.data.object === null) {
      throw new BillingError(400, 'Webhook payload is not an event');
    }

    // What needs the network is read before the transaction opens.
    const sealKey = await this.keyForSealing();
    const providerStatus = event.type === 'invoice.paid' ? await this.invoiceSubscriptionStatus(event.data.object as Stripe.Invoice) : null;
    // The claim and the effect commit together: a crash between them leaves
    // neither, and the provider's retry processes the event in full.
    return this.store.atomically(async (tx) => {
      if (!(await tx.webhooks.claim(event.id, event.type))) return { processed: false, type: event.type };
      return { processed: await this.dispatch(tx, sealKey, event, providerStatus), type: event.type };
    });
  }

  /** The provider's status of an invoice's subscription (null: none or unknown there). */
  private async invoiceSubscriptionStatus(invoice: Stripe.Invoice): Promise<string | null> {
    const subscriptionId = invoiceSubscription(invoice);
    if (!subscriptionId || !this.stripe) return null;
    return this.providerSubscriptionStatus(this.stripe, subscriptionId);
  }

  private async dispatch(tx: Repositories, sealKey: Buffer, event: Stripe.Event, providerStatus: string | null): Promise<boolean> {
    switch (event.type) {
      case 'customer.subscription.created': {
        const sub = event.data.object;
        const customerId = idOf(sub.customer as string | { id: string });
        if (ISSUABLE.has(sub.status)) await this.issueKey(tx, sealKey, sub.id, customerId, false);
        await this.syncStatus(tx, sub, event.id);
        return true;
      }
      case 'invoice.paid': {
        const invoice = event.data.object;
        const subscriptionId = invoiceSubscription(invoice);
        // The safety net issues only for a subscription the provider reports live now.
        if (!subscriptionId || providerStatus === null || !ISSUABLE.has(providerStatus)) return true;
        await this.issueKey(tx, sealKey, subscriptionId, idOf(invoice.customer as string | { id: string } | null), false);
        return true;
      }
      case 'customer.subscription.updated': {
        await this.syncStatus(tx, event.data.object, event.id);
        return true;
      }
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        await tx.subscriptions.end(sub.id, idOf(sub.customer as string | { id: string } | null), sub.status || 'canceled', event.id);
        const revoked = await tx.keys.revokeForSubscription(sub.id);
        await tx.issuance.dropSealed(sub.id);
        await tx.keys.setSubscriptionStatus(sub.id, sub.status || 'canceled');
        this.log.info({ subscriptionId: sub.id, revoked }, 'subscription ended: keys revoked');
        return true;
      }
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        await tx.webhooks.recordPaymentFailure(idOf(invoice.customer as string | { id: string } | null), invoiceSubscription(invoice), invoice.id ?? null);
        return true;
      }
      default:
        return false;
    }
  }

  /** Record the subscription's status; an ended status also leaves its tombstone. */
  private async syncStatus(tx: Repositories, sub: Stripe.Subscription, eventId: string): Promise<void> {
    if (ENDED.has(sub.status)) await tx.subscriptions.end(sub.id, idOf(sub.customer as string | { id: string } | null), sub.status, eventId);
    await tx.keys.setSubscriptionStatus(sub.id, sub.status);
  }

  // ----- billing history -----

  async billingHistory(customerId: string | null): Promise<BillingHistory> {
    if (!customerId) return { invoices: [], cached_at: new Date().toISOString(), customer_id: null };
    const cached = await this.store.billingCache.get(customerId);
    const fresh = cached && Date.now() - Date.parse(cached.cachedAt) < this.config.billingHistoryCacheSeconds * 1000;
    if (cached && fresh) return this.fromCache(customerId, cached);
    try {
      const stripe = this.requireStripe();
      const list = await stripe.invoices.list({ customer: customerId, limit: HISTORY_LIMIT });
      const invoices = list.data.map(toBillingInvoice);
      const cachedAt = await this.store.billingCache.put(customerId, JSON.stringify({ invoices }));
      return { invoices, cached_at: cachedAt, customer_id: customerId };
    } catch (err) {
      // Degrade, don't fail: an older copy beats an error.
      if (cached) return this.fromCache(customerId, cached);
      throw this.providerError(err, 'invoices.list');
    }
  }

  private fromCache(customerId: string, cached: { payload: string; cachedAt: string }): BillingHistory {
    const { invoices } = JSON.parse(cached.payload) as { invoices: BillingInvoice[] };
    return { invoices, cached_at: cached.cachedAt, customer_id: customerId };
  }
}
