import { APIResource } from './resource.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/billing: checkout, customer portal, key from a paid checkout; billing history. Writes are not retried on 5xx. */
export class Billing extends APIResource {
  /** POST /v1/billing/checkout: a payment page for the metered plan (503 when payments are not configured). */
  async checkout(body: T.CheckoutRequest, options?: CallOptions): Promise<T.CheckoutResponse> {
    return this._client.post('/v1/billing/checkout', { body, ...options });
  }

  /** POST /v1/billing/portal: the customer portal (change or cancel the subscription, change the card). */
  async portal(body: T.PortalRequest, options?: CallOptions): Promise<T.BillingPortalResponse> {
    return this._client.post('/v1/billing/portal', { body, ...options });
  }

  /** POST /v1/billing/keys/from-checkout: the paid key, once per session (402 unpaid, 409 already issued). */
  async keysFromCheckout(body: T.KeysFromCheckoutRequest, options?: CallOptions): Promise<T.KeysFromCheckoutResponse> {
    return this._client.post('/v1/billing/keys/from-checkout', { body, ...options });
  }

  /** GET /v1/me/billing_history: invoices of the key's customer (docs/decisions/0076-paths-beyond-contract.md; key required). */
  async history(options?: CallOptions): Promise<T.BillingHistoryResponse> {
    return this._client.get('/v1/me/billing_history', options);
  }
}
