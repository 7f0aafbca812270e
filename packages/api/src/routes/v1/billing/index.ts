// /v1/billing: checkout, customer portal, key issuance from a paid checkout,
// and the payment-provider webhook. Thin: the BillingService (billing/) does
// the work; its BillingError carries the status and detail to answer with.
// None of these paths is metered or billed. The keyless ones that call
// Stripe have limits of their own per caller (checkout and from-checkout
// share CHECKOUT_DAILY_LIMIT, the portal PORTAL_DAILY_LIMIT): an anonymous
// caller cannot spend the account's Stripe rate limit, which the meter flush
// and the portal share (issue 24, M2). Every redirect the payment provider
// follows lands on an allowed origin (billing/redirects.ts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import {
  BillingPortalResponse,
  CheckoutRequest,
  CheckoutResponse,
  FromCheckoutRequest,
  FromCheckoutResponse,
  PortalRequest,
  WebhookResponse,
} from '../../../schemas/billing.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { BillingError } from '../../../billing/service.ts';
import { addressHashOf } from '../../../plugins/auth.ts';
import { operations } from '../../operation.ts';

const billingOperation = operations({ access: 'public', extraLimit: 'checkout' }, 'billing');

/** Run a billing call, answering its BillingError with the status and detail it names. */
export async function billingCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BillingError) throw new HttpError(err.status, err.message);
    throw err;
  }
}

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/checkout',
    billingOperation(
      'createCheckout',
      'Start a subscription checkout (metered, one per-request price)',
      {
        description:
          'Returns the payment page URL and the session id. `success_url` and `cancel_url` must be on the origin of this service ' +
          '(or one its operator lists). 503 when the payment provider is not configured.',
        body: CheckoutRequest,
        response: { 200: CheckoutResponse },
      },
      [400, 429, 503],
    ),
    async (request) => {
      const { success_url, cancel_url, customer_email } = request.body;
      const r = await billingCall(() => app.billing.createCheckout({ successUrl: success_url, cancelUrl: cancel_url, customerEmail: customer_email }));
      return { url: r.url, session_id: r.sessionId };
    },
  );

  app.post(
    '/portal',
    {
      // Keyless by contract: the risk is shrunk around it (docs/decisions/0112-billing-portal.md).
      config: { access: 'public', extraLimit: 'portal' },
      schema: {
        operationId: 'createBillingPortal',
        tags: ['billing'],
        summary: 'Customer portal session (change or cancel the subscription, change the card)',
        description:
          'No authentication: the customer id is in the body. When an API key is presented, it must belong to that customer (401 otherwise). ' +
          '`return_url` is optional; it must be on the origin of this service (or one its operator lists). ' +
          'A customer id this service cannot open a portal for answers 404, whether or not it exists. Every session is recorded.',
        body: PortalRequest,
        response: { 200: BillingPortalResponse, ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request) => {
      const { customer_id: customerId, return_url: returnUrl } = request.body;
      const identity = request.identity;
      if (identity.kind === 'key' && identity.key.customerId !== customerId) {
        throw new HttpError(401, 'The API key does not belong to this customer');
      }
      const portal = await billingCall(() => app.billing.createPortal({ customerId, returnUrl }));
      await app.state.portalSessions.record({
        customerId,
        addressHash: addressHashOf(request),
        keyPrefix: identity.kind === 'key' ? identity.key.prefix : null,
      });
      request.log.info({ keyPrefix: identity.kind === 'key' ? identity.key.prefix : null }, 'billing portal opened');
      return portal;
    },
  );

  app.post(
    '/keys/from-checkout',
    billingOperation(
      'issueKeyFromCheckout',
      'Receive the paid API key of a completed checkout (once)',
      {
        description:
          'The checkout session is verified with the payment provider. 402 while it is not paid; 409 once the key of its subscription was handed out (rotate through the portal).',
        body: FromCheckoutRequest,
        response: { 200: FromCheckoutResponse },
      },
      [400, 402, 404, 409, 429, 503],
    ),
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const r = await billingCall(() => app.billing.keyFromCheckout(request.body.session_id));
      return { api_key: r.apiKey, tier: 'paid', customer_id: r.customerId };
    },
  );

  // The webhook verifies a signature over the exact bytes received: in this
  // encapsulated context every body is kept as a raw Buffer, never parsed.
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
    hook.post(
      '/webhook',
      {
        config: { access: 'signature' },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: {
          operationId: 'receiveBillingWebhook',
          tags: ['billing'],
          summary: 'Payment-provider event receiver (not for end users)',
          description:
            'Events: customer.subscription.created, invoice.paid, customer.subscription.updated, customer.subscription.deleted, invoice.payment_failed; ' +
            'other types are acknowledged and ignored. Signed in the header `payment-signature` (`t=…,v1=…`, 5-minute tolerance); ' +
            'a bad signature answers 400 and changes nothing. Each event id is processed once.',
          headers: Type.Object({ 'payment-signature': Type.Optional(Type.String({ maxLength: 4096 })) }),
          response: { 200: WebhookResponse, ...errorResponses(400, 413, 503) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['payment-signature'];
        const result = await billingCall(() => app.billing.handleWebhook(raw, typeof header === 'string' ? header : undefined));
        request.log.info({ eventType: result.type, processed: result.processed }, 'webhook received');
        return { status: 'received' };
      },
    );
  });
};

export default billingRoutes;
