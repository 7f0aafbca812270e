// Usage events, as the response leaves: one event per authenticated request to
// a route declared with a counter (plugins/route-policy.ts; ping included,
// counted but not billed). A 2xx answer of a paid key on a route declared
// `billed` costs UNIT_PRICE_YEN, billed in the Japan-time month; a capped
// key's price was reserved before serving (plugins/limits.ts) and its event
// confirms that reservation (any other answer releases it). The events of
// customers are queued in the meter outbox that the billing flusher drains.
// A refusal (429, 402) is not usage: it leaves no event, only its error count.
// Also counts every 4xx/5xx per route pattern for /v1/admin/errors (route and
// status only: no address, no key).
//
// Every write of a request goes through the group commit (app.groupCommit,
// state/group-commit.ts): the writes of the requests answered in the same
// millisecond share one transaction, and each answer waits for its commit.
import fp from 'fastify-plugin';
import { timeOrderedId } from '../state/event-id.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UsageEntry, UsageEvent } from '../state/repositories/usage.ts';
import type { Mergeable } from '../state/group-commit.ts';
import { Counter } from 'prom-client';
import { addPreHandlers, policyOf, type CountedCall } from './route-policy.ts';
import { jstMonth } from '../lib/time.ts';

/** How often unsettled spend reservations of dead processes are given back. */
const SWEEP_INTERVAL_MS = 60_000;

/** Answers that refuse a call for its limit or cap: counted as errors, never usage. */
const REFUSALS = new Set([402, 429]);

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Store the writes of an answered call (usage events, error count, spend
     * reservations settled), as onSend does for a request; resolves once they
     * are committed. For calls made in process (routes/mcp-calls.ts).
     */
    recordCall(call: CountedCall, status: number): Promise<void>;
  }
}

export default fp(
  async function usage(app: FastifyInstance) {
    const commit = app.groupCommit;
    // How well writes are grouped: writes / batches is the mean batch size.
    new Counter({
      name: 'jpsp_group_commit_batches_total',
      help: 'Transactions of the group commit (usage, spend reservations, daily counters)',
      registers: [app.metrics.registry],
      collect() {
        this.reset();
        this.inc(commit.stats.batches);
      },
    });
    new Counter({
      name: 'jpsp_group_commit_writes_total',
      help: 'Writes committed by the group commit',
      registers: [app.metrics.registry],
      collect() {
        this.reset();
        this.inc(commit.stats.writes);
      },
    });

    /**
     * The usage entries of many requests, merged by the group commit into one
     * recordMany (multi-row statements). An event recorded without a
     * reservation that the cap refused (the cap was set while its call ran) is
     * kept unbilled: the cap wins.
     */
    const usageWrites: Mergeable<UsageEntry[], void> = {
      async writeAll(tx, perRequest) {
        const entries = perRequest.flat();
        const recorded = await tx.usage.recordMany(entries);
        const refused = entries.filter((_, i) => !recorded[i]);
        if (refused.length) await tx.usage.recordMany(refused.map((e) => ({ event: { ...e.event, billable: false, amountYen: 0 }, capYen: null })));
        return perRequest.map(() => undefined);
      },
    };

    /** The writes of one answered request, queued: its error count, its usage events (one per unit it took), its reservations settled. */
    function writesOf(request: CountedCall, status: number): Promise<unknown>[] {
      const route = request.routeOptions.url;
      const identity = request.identity;
      const policy = policyOf(request);
      // Taken now: the request owns its reservations until these writes settle them.
      const reservations = request.spendReservations ?? [];
      request.spendReservations = [];
      const writes: Promise<unknown>[] = [];
      if (status >= 400) writes.push(commit.submit((tx) => tx.analytics.recordError(route ?? '(no route)', status)));
      const counted = identity?.kind === 'key' && policy.counter !== null && !REFUSALS.has(status);
      if (!counted) {
        if (reservations.length) writes.push(commit.submit((tx) => tx.usage.release(reservations)));
        return writes;
      }
      const key = identity.key;
      const now = new Date();
      const billable = key.tier === 'paid' && status >= 200 && status < 300 && policy.billed;
      const event: UsageEvent = {
        eventId: timeOrderedId(),
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
      // The cap as read where the spend was reserved (not the cached record's, which may be stale).
      const entries: UsageEntry[] = [{ event, capYen: request.spendCapYen, reservations }];
      // A request that took several units records one event per further unit:
      // a JSON-RPC batch (one per message, never billed) or an export (one per
      // started 100 rows, all billed on the first event, amount and meter value).
      for (let i = 1; i < request.units; i++) entries.push({ event: { ...event, eventId: timeOrderedId(), billable: false, amountYen: 0 }, capYen: null });
      writes.push(commit.submitMerged(usageWrites, entries));
      return writes;
    }

    /** Store the writes of an answered request; resolves once they are committed. */
    async function record(request: CountedCall, status: number): Promise<void> {
      app.metrics.usageWrites.inc();
      try {
        const outcomes = await Promise.allSettled(writesOf(request, status));
        for (const o of outcomes) {
          if (o.status === 'rejected')
            request.log.error({ reqId: request.id, error: o.reason instanceof Error ? o.reason.message : String(o.reason) }, 'usage recording failed');
        }
      } catch (err) {
        request.log.error({ reqId: request.id, error: err instanceof Error ? err.message : String(err) }, 'usage recording failed');
      } finally {
        app.metrics.usageWrites.dec();
      }
    }

    app.decorate('recordCall', record);
    // onSend, not onResponse: the event (and its spend) is committed before
    // the client sees the answer, so nothing answered is lost and its next
    // request's cap check already counts it.
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
    // A request that ended without onSend settling its reservations (aborted,
    // hijacked) gives them back here; a crash leaves them to the sweep.
    app.addHook('onResponse', async (request) => {
      if (request.spendReservations?.length) void commit.submit(async (tx) => tx.usage.release(request.spendReservations.splice(0))).catch(() => undefined);
    });

    const sweep = () => {
      app.state.usage.sweepExpiredReservations().then(
        (n) => {
          if (n) app.log.warn({ reservations: n }, 'expired spend reservations given back');
        },
        (err) => app.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'spend reservation sweep failed'),
      );
    };
    sweep();
    const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
    sweeper.unref();
    // The group commit itself is drained by the state plugin when the app closes.
    app.addHook('onClose', async () => clearInterval(sweeper));
  },
  { name: 'usage', dependencies: ['auth', 'limits', 'state', 'metrics'] },
);
