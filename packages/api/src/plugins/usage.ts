// Usage events, as the response leaves: one event per authenticated request to
// a route declared with a counter (plugins/route-policy.ts; ping included,
// counted but not billed). A 2xx answer of a paid key on a route declared
// `billed` costs UNIT_PRICE_YEN, billed in the Japan-time month; the store
// keeps the month within the key's cap atomically and queues the events of
// customers in the meter outbox that the billing flusher drains.
// Also counts every 4xx/5xx per route pattern for /v1/admin/errors (route and
// status only: no address, no key).
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { UsageEvent } from '../state/repositories/usage.ts';
import { policyOf } from './route-policy.ts';
import { jstMonth } from '../time.ts';

export default fp(
  async function usage(app: FastifyInstance) {
    // onSend, not onResponse: the event (and its spend) is stored before the
    // client sees the answer, so its next request's cap check already counts it.
    app.addHook('onSend', async (request, reply) => {
      const route = request.routeOptions.url;
      const status = reply.statusCode;
      try {
        if (status >= 400) await app.state.analytics.recordError(route ?? '(no route)', status);
        const identity = request.identity;
        const policy = policyOf(request);
        if (identity?.kind !== 'key' || policy.counter === null) return;
        const key = identity.key;
        const now = new Date();
        const billable = key.tier === 'paid' && status >= 200 && status < 300 && policy.billed;
        const event: UsageEvent = {
          eventId: randomUUID(),
          keyId: key.id,
          customerId: key.customerId,
          tier: key.tier,
          method: request.method,
          route: route!,
          status,
          billable,
          amountYen: billable ? app.config.unitPriceYen : 0,
          billingMonth: jstMonth(now),
          createdAt: now.toISOString(),
        };
        const recorded = await app.state.usage.record(event, key.monthlyCapYen);
        if (!recorded) {
          // A concurrent request took the last of the cap after our pre-check: the cap wins, this one is not billed.
          await app.state.usage.record({ ...event, billable: false, amountYen: 0 }, null);
        }
      } catch (err) {
        request.log.error({ reqId: request.id, error: err instanceof Error ? err.message : String(err) }, 'usage recording failed');
      }
    });
  },
  { name: 'usage', dependencies: ['auth', 'state'] },
);
