// Billing request and response shapes (contract: Billing invoice and history,
// POST /v1/billing/*).
import { Type } from 'typebox';
import { Nullable } from './common.ts';

/** Absolute http(s) URL; Stripe's `{CHECKOUT_SESSION_ID}` template is allowed. */
const HttpUrl = (description: string) => Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://[^\\s]+$', description });

export const CheckoutRequest = Type.Object(
  {
    success_url: HttpUrl('Where the payment page returns after payment; may contain `{CHECKOUT_SESSION_ID}`.'),
    cancel_url: HttpUrl('Where the payment page returns when the customer cancels.'),
    customer_email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'Prefills the payment page.' })),
  },
  { $id: 'CheckoutRequest', additionalProperties: false },
);

export const CheckoutResponse = Type.Object(
  {
    url: Type.String({ description: 'Payment page to send the customer to.' }),
    session_id: Type.String({ description: 'Checkout session id; pass it to /v1/billing/keys/from-checkout after payment.' }),
  },
  { $id: 'CheckoutResponse' },
);

export const PortalRequest = Type.Object(
  {
    customer_id: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^cus_[A-Za-z0-9_]+$',
      description: 'Payment-provider customer id (returned by from-checkout and /v1/me).',
    }),
    return_url: Type.Optional(HttpUrl('Where the portal returns to; optional (the portal default is used when omitted).')),
  },
  { $id: 'PortalRequest', additionalProperties: false },
);

export const BillingPortalResponse = Type.Object(
  { url: Type.String({ description: 'Customer portal: change or cancel the subscription, change the card.' }) },
  { $id: 'BillingPortalResponse' },
);

export const FromCheckoutRequest = Type.Object(
  { session_id: Type.String({ minLength: 4, maxLength: 255, pattern: '^cs_[A-Za-z0-9_]+$', description: 'The checkout session id.' }) },
  { $id: 'FromCheckoutRequest', additionalProperties: false },
);

export const FromCheckoutResponse = Type.Object(
  {
    api_key: Type.String({ description: 'The paid API key, shown once.' }),
    tier: Type.String({ description: 'Always `paid`.' }),
    customer_id: Type.String(),
  },
  { $id: 'FromCheckoutResponse' },
);

export const WebhookResponse = Type.Object({ status: Type.String({ description: 'Always `received`.' }) }, { $id: 'WebhookResponse' });

export const BillingInvoice = Type.Object(
  {
    id: Type.String(),
    number: Nullable(Type.String()),
    period_start: Nullable(Type.String({ description: 'ISO 8601 UTC' })),
    period_end: Nullable(Type.String({ description: 'ISO 8601 UTC' })),
    amount_due_yen: Type.Integer(),
    amount_paid_yen: Type.Integer(),
    currency: Type.String(),
    status: Type.String(),
    hosted_invoice_url: Nullable(Type.String()),
    invoice_pdf: Nullable(Type.String()),
    created: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { $id: 'BillingInvoice', additionalProperties: false },
);

export const BillingHistoryResponse = Type.Object(
  {
    invoices: Type.Array(BillingInvoice),
    cached_at: Type.String({ description: 'When these invoices were read from the payment provider (ISO 8601 UTC).' }),
    customer_id: Nullable(Type.String()),
  },
  { $id: 'BillingHistoryResponse', additionalProperties: false },
);
