// Billing wiring: the Stripe client (null when STRIPE_SECRET_KEY is unset:
// checkout, portal and from-checkout then answer 503), the BillingService as
// `app.billing`, and the meter flusher, which runs only when Stripe is
// configured, every STRIPE_METER_FLUSH_SECONDS (0: no timer), in the one
// process holding its lease, and flushes once more when the app closes:
// in onClose, after the usage plugin's (app.ts registers billing before
// usage, and onClose hooks run in reverse order), so the events of the last
// requests are in the outbox, and before the state store closes.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createStripeClient } from '../billing/stripe-client.ts';
import { BillingService } from '../billing/service.ts';
import { MeterFlusher } from '../billing/meter-flusher.ts';

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingService;
    /** Null when Stripe is not configured. */
    meterFlusher: MeterFlusher | null;
  }
}

export default fp(
  async function billing(app: FastifyInstance) {
    const stripe = createStripeClient(app.config);
    app.decorate('billing', new BillingService({ config: app.config, store: app.state, stripe, log: app.log }));
    const flusher = stripe ? new MeterFlusher({ store: app.state, stripe, eventName: app.config.stripeMeterEventName, log: app.log }) : null;
    app.decorate('meterFlusher', flusher);
    if (flusher) {
      flusher.start(app.config.stripeMeterFlushSeconds);
      app.addHook('onClose', async () => {
        await flusher.stop().catch((err) => app.log.error({ error: err instanceof Error ? err.message : String(err) }, 'final meter flush failed'));
      });
    }
  },
  { name: 'billing', dependencies: ['state'] },
);
