// Daily limits and the monthly cap, before any handler runs:
// - anonymous: ANON_DAILY_LIMIT per address unit per Japan-time day
//   (429 {detail, limit, resets_at}, Retry-After to Japan midnight);
// - free key: FREE_DAILY_LIMIT per UTC day (429 naming the limit and `free`,
//   Retry-After to UTC midnight);
// - paid key: never 429; with a monthly cap, a billable request that would
//   take this Japan-time month's spend above it answers 402
//   {detail, cap_yen, spent_yen}.
// Only metered paths (metered-paths.ts) are counted. Counted responses carry
// RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from './errors.ts';
import { isBillable, isMetered } from './metered-paths.ts';
import { isoJst, jstDate, jstMonth, nextJstMidnight, nextUtcMidnight, secondsUntil, utcDate } from '../time.ts';

export interface Quota {
  limit: number;
  remaining: number;
  resetsAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The daily allowance this request was counted against; null when not counted (paid key, unmetered path). */
    quota: Quota | null;
  }
}

function setRateLimitHeaders(reply: FastifyReply, quota: Quota, now: Date): void {
  reply.header('RateLimit-Limit', String(quota.limit));
  reply.header('RateLimit-Remaining', String(quota.remaining));
  reply.header('RateLimit-Reset', String(secondsUntil(quota.resetsAt, now)));
}

export default fp(
  async function limits(app: FastifyInstance) {
    app.decorateRequest('quota', null);
    const { anonDailyLimit, freeDailyLimit, unitPriceYen } = app.config;

    app.addHook('onRequest', async (request, reply) => {
      const route = request.routeOptions.url;
      if (!isMetered(request.method, route)) return;
      const identity = request.identity;
      const now = new Date();

      if (identity.kind === 'anonymous') {
        const resetsAt = nextJstMidnight(now);
        const r = await app.state.takeCounter('anon', identity.addressHash, jstDate(now), anonDailyLimit);
        const quota = { limit: anonDailyLimit, remaining: Math.max(0, anonDailyLimit - r.count), resetsAt };
        request.quota = quota;
        setRateLimitHeaders(reply, quota, now);
        if (!r.allowed) {
          throw new HttpError(
            429,
            `Anonymous daily limit of ${anonDailyLimit} requests per address reached; it resets at Japan-time midnight. Use an API key for more.`,
            { limit: anonDailyLimit, resets_at: isoJst(resetsAt) },
            { 'Retry-After': String(secondsUntil(resetsAt, now)) },
          );
        }
        return;
      }

      const key = identity.key;
      if (key.tier === 'free') {
        const resetsAt = nextUtcMidnight(now);
        const r = await app.state.takeCounter('free', String(key.id), utcDate(now), freeDailyLimit);
        const quota = { limit: freeDailyLimit, remaining: Math.max(0, freeDailyLimit - r.count), resetsAt };
        request.quota = quota;
        setRateLimitHeaders(reply, quota, now);
        if (!r.allowed) {
          throw new HttpError(
            429,
            `Daily limit of ${freeDailyLimit} requests for the free tier reached; it resets at 00:00 UTC.`,
            { limit: freeDailyLimit, tier: 'free', resets_at: resetsAt.toISOString().replace(/\.\d{3}Z$/, 'Z') },
            { 'Retry-After': String(secondsUntil(resetsAt, now)) },
          );
        }
        return;
      }

      // Paid: no volume limit; the cap guards billable requests.
      if (key.monthlyCapYen !== null && isBillable(request.method, route)) {
        const spent = await app.state.monthlySpend(key.id, jstMonth(now));
        if (spent + unitPriceYen > key.monthlyCapYen) {
          throw new HttpError(
            402,
            `Monthly spend cap of ${key.monthlyCapYen} yen reached (${spent} yen spent this month, Japan time). Raise or remove it with POST /v1/me/cap.`,
            { cap_yen: key.monthlyCapYen, spent_yen: spent },
          );
        }
      }
    });
  },
  { name: 'limits', dependencies: ['auth', 'state'] },
);
