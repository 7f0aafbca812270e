// The official Stripe SDK, constructed from configuration. `billing/` is the
// only place that imports `stripe`; everything else sees the BillingService.
// STRIPE_API_BASE (e.g. http://127.0.0.1:12111) points the SDK at another
// host, which is how tests run it against a local fake of Stripe's HTTP API.
import Stripe from 'stripe';
import { ConfigError, SERVER_VERSION, type Config } from '../config.ts';

export type { Stripe };
export type StripeClient = InstanceType<typeof Stripe>;

/** Webhook signature tolerance in seconds (Stripe's default: 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** SDK host options from STRIPE_API_BASE; throws ConfigError on a malformed value. */
export function apiBaseOptions(apiBase: string | null): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE must be an absolute http(s) URL, got ${JSON.stringify(apiBase)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`STRIPE_API_BASE must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.pathname !== '/' && url.pathname !== '') {
    throw new ConfigError('STRIPE_API_BASE must not have a path (the SDK adds /v1/…)');
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** The SDK client, or null when STRIPE_SECRET_KEY is not set (billing answers 503). */
export function createStripeClient(config: Pick<Config, 'stripeSecretKey' | 'stripeApiBase' | 'stripeMaxNetworkRetries'>): StripeClient | null {
  if (!config.stripeSecretKey) return null;
  return new Stripe(config.stripeSecretKey, {
    maxNetworkRetries: config.stripeMaxNetworkRetries,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'jp-support-programs-api', version: SERVER_VERSION },
    ...apiBaseOptions(config.stripeApiBase),
  });
}

/**
 * Verify a webhook payload against its `t=…,v1=…` signature header and parse
 * the event (the SDK's constructEvent; our header name differs from Stripe's,
 * the value is the same scheme). Throws on a bad or stale signature.
 */
export function constructWebhookEvent(rawBody: Buffer, signatureHeader: string, secret: string, receivedAt?: number): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, receivedAt);
}

/** Whether an error is the SDK's signature-verification failure. */
export function isSignatureError(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeSignatureVerificationError;
}

/** The SDK's typed error, when `err` is one: HTTP status, Stripe error code/type, message. */
export function stripeErrorInfo(
  err: unknown,
): { statusCode: number | undefined; code: string | undefined; type: string; message: string; param: string | undefined } | null {
  if (!(err instanceof Stripe.errors.StripeError)) return null;
  return { statusCode: err.statusCode, code: err.code, type: err.type, message: err.message, param: err.param };
}
