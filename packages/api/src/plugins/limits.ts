// Daily limits and the monthly cap, before any handler runs, on the routes
// whose declaration (plugins/route-policy.ts) asks for them:
// - `counter: 'daily'`, anonymous: ANON_DAILY_LIMIT per address unit per
//   Japan-time day (429 {detail, limit, resets_at}, Retry-After to Japan
//   midnight);
// - `counter: 'daily'`, free key: FREE_DAILY_LIMIT per UTC day (429 naming
//   the limit and `free`, Retry-After to UTC midnight);
// - `counter: 'daily'`, paid key: never 429; with a monthly cap, a call to a
//   `billed` route reserves its price in this Japan-time month's spend before
//   it is served, atomically within the cap read from the store in the same
//   transaction (state/repositories/usage.ts `reserve`), and answers 402
//   {detail, cap_yen, spent_yen} when it does not fit; its usage event
//   (plugins/usage.ts) confirms or releases the reservation, so the cap and
//   every change to it are exact across processes and replicas;
// - `extraLimit`: the route's own per-day limit (EXTRA_LIMITS), checked after
//   the request was validated, so a refused request never takes one.
// Counted responses carry RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { timeOrderedId } from '../state/event-id.ts';
import { StateUnavailableError } from '../state/sql.ts';
import type { SpendReservation } from '../state/repositories/usage.ts';
import { addPreHandlers, policyOf, type CountedCall, type ExtraLimit } from './route-policy.ts';
import { isoJst, jstDate, jstMonth, nextJstMidnight, nextUtcMidnight, secondsUntil, utcDate, utcSeconds } from '../lib/time.ts';

export interface Quota {
  limit: number;
  remaining: number;
  resetsAt: Date;
}

/** Where the limits put their headers (RateLimit-*, X-Degraded): a reply, or an in-process call's answer headers. */
export interface HeaderSink {
  header(name: string, value: string): unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Take one call's units of its route's counter (or reserve a paid key's
     * spend on a billed route), as the onRequest hook does for a request;
     * throws the 429/402 HttpError of a refusal. For calls made in process
     * without a request of their own (routes/mcp-calls.ts).
     */
    admitCall(call: CountedCall, headers: HeaderSink, units: number): Promise<void>;
  }
  interface FastifyRequest {
    /** The daily allowance this request was counted against; null when not counted (paid key, uncounted route). */
    quota: Quota | null;
    /** Units of the counter this request took (1, or its JSON-RPC messages); 0 when not counted. */
    units: number;
    /** Spend reserved for this request within its key's cap, settled by its usage event (plugins/usage.ts). */
    spendReservations: SpendReservation[];
    /** The monthly cap in force as read from the store when spend was reserved; null: uncapped (or nothing reserved). */
    spendCapYen: number | null;
  }
}

/**
 * Reserve `units` × UNIT_PRICE_YEN of a paid key's month for this request
 * within its monthly cap, or answer 402 {detail, cap_yen, spent_yen};
 * `detail` words the refusal from the spend seen (confirmed plus what other
 * requests hold). The cap is read from the store, never from the cached key
 * record: a cap set, raised or removed by any process holds for the very next
 * call (issue 24). A key cached as uncapped costs one primary-key read; a
 * capped one reads its cap in the reservation's own transaction.
 */
async function reserveSpend(app: FastifyInstance, request: CountedCall, units: number, detail: (cap: number, spent: number) => string): Promise<void> {
  const identity = request.identity;
  if (identity.kind !== 'key') return;
  const keyId = identity.key.id;
  if (identity.key.monthlyCapYen === null && (await app.state.keys.monthlyCap(keyId)) === null) {
    request.spendCapYen = null;
    return;
  }
  const own = request.spendReservations.reduce((sum, r) => sum + r.amountYen, 0);
  // Through the group commit: the reservations of concurrent calls share a transaction (each still one guarded statement).
  const id = timeOrderedId();
  const r = await app.groupCommit.submit((tx) => tx.usage.reserve(keyId, jstMonth(new Date()), units * app.config.unitPriceYen, id));
  request.spendCapYen = r.capYen;
  if (!r.reserved) {
    const spent = Math.max(0, r.spentYen - own);
    throw new HttpError(402, detail(r.capYen, spent), { cap_yen: r.capYen, spent_yen: spent });
  }
  if (r.reservation) request.spendReservations.push(r.reservation);
}

/**
 * Take `units` of a daily counter through the group commit: the takes of
 * concurrent calls share one transaction (on SQLite, one commit instead of
 * one each), and each is still its own atomic guarded statement whose
 * RETURNING count is the answer, so the limit stays exact.
 */
function takeCounter(app: FastifyInstance, scope: string, subject: string, period: string, limit: number, units: number) {
  return app.groupCommit.submit((tx) => tx.counters.take(scope, subject, period, limit, units));
}

/** What `takeCounter` would answer for one more unit, taking nothing (routes that do not count anonymous calls). */
async function checkCounter(app: FastifyInstance, scope: string, subject: string, period: string, limit: number) {
  const count = await app.state.counters.peek(scope, subject, period);
  return { allowed: count < limit, count };
}

/**
 * The limits a route can declare as `extraLimit`: per caller (key, else
 * address) per Japan-time day, in a counter of their own.
 */
const EXTRA_LIMITS: Record<ExtraLimit, { perDay: (config: Readonly<Config>) => number; detail: (limit: number) => string }> = {
  feedback: {
    perDay: (config) => config.feedbackDailyLimit,
    detail: (limit) => `Feedback limit of ${limit} messages per day reached; it resets at Japan-time midnight.`,
  },
  subscribe: {
    perDay: (config) => config.subscribeDailyLimit,
    detail: (limit) => `Sign-up limit of ${limit} per day reached; it resets at Japan-time midnight.`,
  },
  portal: {
    perDay: (config) => config.portalDailyLimit,
    detail: (limit) => `Limit of ${limit} billing-portal sessions per day reached; it resets at Japan-time midnight.`,
  },
  checkout: {
    perDay: (config) => config.checkoutDailyLimit,
    detail: (limit) => `Limit of ${limit} checkout sessions and key look-ups per day reached; it resets at Japan-time midnight.`,
  },
  webhookTests: {
    perDay: (config) => config.webhookTestDailyLimit,
    detail: (limit) => `Limit of ${limit} webhook test requests per day reached; it resets at Japan-time midnight.`,
  },
  writes: {
    perDay: (config) => config.writeDailyLimit,
    detail: (limit) => `Limit of ${limit} sign-ups, device authorisations and referral clicks per day reached; it resets at Japan-time midnight.`,
  },
};

/** The JSON-RPC messages in a body: the length of a batch, else one. */
export function jsonRpcMessages(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

function setRateLimitHeaders(reply: HeaderSink, quota: Quota, now: Date): void {
  reply.header('RateLimit-Limit', String(quota.limit));
  reply.header('RateLimit-Remaining', String(quota.remaining));
  reply.header('RateLimit-Reset', String(secondsUntil(quota.resetsAt, now)));
}

/** The 429 of a limit that resets at Japan-time midnight: {detail, limit, resets_at} and Retry-After. */
function jstLimitReached(detail: string, limit: number, now: Date): HttpError {
  const resetsAt = nextJstMidnight(now);
  return new HttpError(429, detail, { limit, resets_at: isoJst(resetsAt) }, { 'Retry-After': String(secondsUntil(resetsAt, now)) });
}

/**
 * Make the request cost `units` in all, on a route declaring `unitRows`:
 * the one unit its counter took at onRequest plus `units - 1` more, taken
 * atomically from the same daily allowance (429 when they do not fit: nothing
 * is taken), or checked against a paid key's monthly cap (402). Called by
 * the export sender (plugins/exports.ts) before the first byte is sent.
 */
export async function takeUnits(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, units: number): Promise<void> {
  const policy = policyOf(request);
  if (!policy.unitRows) throw new Error(`${request.routeOptions.url}: takeUnits needs a route declaring unitRows`);
  const extra = units - 1;
  const now = new Date();
  const identity = request.identity;
  const refuse = (limit: number, remaining: number): never => {
    const detail = `This export needs ${units} requests of the daily allowance (each started ${policy.unitRows} rows count as one) and ${remaining + 1} remain${identity.kind === 'anonymous' ? ' for this address' : ''}; ask for fewer rows with max_rows.`;
    if (identity.kind === 'anonymous') throw jstLimitReached(detail, limit, now);
    const resetsAt = nextUtcMidnight(now);
    throw new HttpError(429, detail, { limit, tier: 'free', resets_at: utcSeconds(resetsAt) }, { 'Retry-After': String(secondsUntil(resetsAt, now)) });
  };
  if (extra > 0 && policy.counter === 'daily' && request.quota) {
    const scope = identity.kind === 'anonymous' ? 'anon' : 'free';
    const subject = identity.kind === 'anonymous' ? identity.addressHash : String(identity.key.id);
    const period = identity.kind === 'anonymous' ? jstDate(now) : utcDate(now);
    const taken = await app.state.counters.take(scope, subject, period, request.quota.limit, extra);
    if (!taken.allowed) refuse(request.quota.limit, request.quota.remaining);
    request.quota = { ...request.quota, remaining: Math.max(0, request.quota.limit - taken.count) };
    setRateLimitHeaders(reply, request.quota, now);
  }
  if (identity.kind === 'key' && identity.key.tier === 'paid' && policy.billed && extra > 0) {
    // The first unit was reserved at onRequest; the rest now, or 402.
    await reserveSpend(
      app,
      request,
      extra,
      (cap, spent) =>
        `This export costs ${units} units (${units * app.config.unitPriceYen} yen) and would pass the monthly spend cap of ${cap} yen (${spent} yen spent this month, Japan time); ask for fewer rows with max_rows.`,
    );
  }
  request.units = units;
}

export default fp(
  async function limits(app: FastifyInstance) {
    app.decorateRequest('quota', null);
    app.decorateRequest('units', 0);
    app.decorateRequest('spendReservations', null as never);
    app.decorateRequest('spendCapYen', null);
    const { anonDailyLimit, freeDailyLimit } = app.config;

    /** Take `units` of the caller's daily allowance (or check the paid cap) for a counted route. */
    async function takeDaily(request: CountedCall, reply: HeaderSink, units: number): Promise<void> {
      const policy = policyOf(request);
      const identity = request.identity;
      const now = new Date();
      request.units = units;

      if (identity.kind === 'anonymous') {
        let r;
        try {
          r = policy.countsAnonymous
            ? await takeCounter(app, 'anon', identity.addressHash, jstDate(now), anonDailyLimit, units)
            : await checkCounter(app, 'anon', identity.addressHash, jstDate(now), anonDailyLimit);
        } catch (err) {
          // Decided (docs/decisions/0186-postgres-outage.md): while the state store is unreachable an
          // anonymous read is served uncounted rather than refused; a route
          // that needs the store itself still answers 503 from its handler.
          if (!(err instanceof StateUnavailableError)) throw err;
          reply.header('X-Degraded', 'uncounted: the usage store is unavailable');
          return;
        }
        const quota = { limit: anonDailyLimit, remaining: Math.max(0, anonDailyLimit - r.count), resetsAt: nextJstMidnight(now) };
        request.quota = quota;
        setRateLimitHeaders(reply, quota, now);
        if (!r.allowed) {
          throw jstLimitReached(
            `Anonymous daily limit of ${anonDailyLimit} requests per address reached; it resets at Japan-time midnight. Use an API key for more.`,
            anonDailyLimit,
            now,
          );
        }
        return;
      }

      const key = identity.key;
      if (key.tier === 'free') {
        const resetsAt = nextUtcMidnight(now);
        const r = await takeCounter(app, 'free', String(key.id), utcDate(now), freeDailyLimit, units);
        const quota = { limit: freeDailyLimit, remaining: Math.max(0, freeDailyLimit - r.count), resetsAt };
        request.quota = quota;
        setRateLimitHeaders(reply, quota, now);
        if (!r.allowed) {
          throw new HttpError(
            429,
            `Daily limit of ${freeDailyLimit} requests for the free tier reached; it resets at 00:00 UTC.`,
            { limit: freeDailyLimit, tier: 'free', resets_at: utcSeconds(resetsAt) },
            { 'Retry-After': String(secondsUntil(resetsAt, now)) },
          );
        }
        return;
      }

      // Paid: no volume limit; the cap guards billed routes, by a reservation made before serving.
      if (policy.billed) {
        await reserveSpend(
          app,
          request,
          units,
          (cap, spent) => `Monthly spend cap of ${cap} yen reached (${spent} yen spent this month, Japan time). Raise or remove it with POST /v1/me/cap.`,
        );
      }
    }

    app.decorate('admitCall', takeDaily);
    // One unit per request, before the request is even parsed (a malformed call is counted too) …
    app.addHook('onRequest', async (request, reply) => {
      request.spendReservations = [];
      const policy = policyOf(request);
      if (policy.counter === 'daily' && policy.units === 'request') await takeDaily(request, reply, 1);
    });
    // … or one unit per JSON-RPC message, once the body is parsed (routes declared `units: 'jsonrpc-message'`).
    const perMessage = async (request: FastifyRequest, reply: FastifyReply) => takeDaily(request, reply, jsonRpcMessages(request.body));

    const extraLimitHook = (name: ExtraLimit) => {
      const { perDay, detail } = EXTRA_LIMITS[name];
      const limit = perDay(app.config);
      return async function takeExtraLimit(request: FastifyRequest): Promise<void> {
        const identity = request.identity;
        const subject = identity.kind === 'key' ? `key:${identity.keyHash}` : `addr:${identity.addressHash}`;
        const now = new Date();
        const taken = await app.state.counters.take(name, subject, jstDate(now), limit);
        if (!taken.allowed) throw jstLimitReached(detail(limit), limit, now);
      };
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.policy?.counter === 'daily' && route.config.policy.units === 'jsonrpc-message') addPreHandlers(route, 'first', [perMessage]);
      const extra = route.config?.policy?.extraLimit;
      if (extra) addPreHandlers(route, 'last', [extraLimitHook(extra)]);
    });
  },
  { name: 'limits', dependencies: ['auth', 'state', 'route-policy'] },
);
