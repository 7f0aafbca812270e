// Where the payment provider may send a customer back to (issue 24, M2):
// checkout's success_url (which receives the checkout session id, the key to
// the customer's new paid key) and cancel_url, and the portal's return_url.
// Only the origin of PUBLIC_BASE_URL, as configured (http on a local
// set-up), and the https origins an operator lists in
// BILLING_RETURN_URL_ORIGINS: a "subscribe here" link cannot land a
// victim's new key on a stranger's page.
import type { Config } from '../config.ts';
import { BillingError } from './errors.ts';

/** The origins billing redirects may land on; the first is the service's own. */
export function redirectOrigins(config: Pick<Config, 'publicBaseUrl' | 'billingReturnUrlOrigins'>): string[] {
  return [new URL(config.publicBaseUrl).origin, ...(config.billingReturnUrlOrigins ?? [])];
}

/** Throw a 400 BillingError naming `field` unless `value` (when given) is on one of `origins` and carries no credentials. */
export function checkRedirect(field: string, value: string | undefined, origins: readonly string[]): void {
  if (value === undefined) return;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // refused below
  }
  if (!url || url.username || url.password || !origins.includes(url.origin)) {
    throw new BillingError(400, `${field} must be on this service's origin (${origins[0]}) or one it lists (BILLING_RETURN_URL_ORIGINS)`);
  }
}
