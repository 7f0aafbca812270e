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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UsageEvent } from '../state/repositories/usage.ts';
import { addPreHandlers, policyOf } from './route-policy.ts';
import { jstMonth } from '../time.ts';

export default fp(
  async function usage(app: FastifyInstance) {
    /** The usage events of one answered request (one per unit it took) and its error count. */
    async function record(request: FastifyRequest, status: number): Promise<void> {
      const route = request.routeOptions.url;
      app.metrics.usageWrites.inc();
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
          amountYen: billable ? app.config.unitPriceYen * request.units : 0,
          units: request.units,
          billingMonth: jstMonth(now),
          createdAt: now.toISOString(),
        };
        const recorded = await app.state.usage.record(event, key.monthlyCapYen);
        if (!recorded) {
          // A concurrent request took the last of the cap after our pre-check: the cap wins, this one is not billed.
          await app.state.usage.record({ ...event, billable: false, amountYen: 0 }, null);
        }
        // A request that took several units records one event per further unit:
        // a JSON-RPC batch (one per message, never billed) or an export (one per
        // started 100 rows, all billed on the first event, amount and meter value).
        for (let i = 1; i < request.units; i++) await app.state.usage.record({ ...event, eventId: randomUUID(), billable: false, amountYen: 0 }, null);
      } catch (err) {
        request.log.error({ reqId: request.id, error: err instanceof Error ? err.message : String(err) }, 'usage recording failed');
      } finally {
        app.metrics.usageWrites.dec();
      }
    }

    // onSend, not onResponse: the event (and its spend) is stored before the
    // client sees the answer, so its next request's cap check already counts it.
    app.addHook('onSend', async (request, reply) => {
      if (policyOf(request).units === 'jsonrpc-message') return;
      await record(request, reply.statusCode);
    });
    // Routes counted per JSON-RPC message answer on the raw response (the MCP
    // transport hijacks the reply, so no onSend runs): their events are
    // recorded when that response has been written. They are never billed,
    // so no cap check waits for them.
    const afterRawResponse = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.raw.once('finish', () => void record(request, reply.raw.statusCode));
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.policy?.units === 'jsonrpc-message') addPreHandlers(route, 'last', [afterRawResponse]);
    });
  },
  { name: 'usage', dependencies: ['auth', 'limits', 'state', 'metrics'] },
);
