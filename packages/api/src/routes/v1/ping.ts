// GET /v1/ping: who the server thinks you are, and how much is left today.
// Authentication, limits and usage are hooks (plugins/auth, limits, usage):
// this handler only reports what they decided.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable, errorResponses } from '../../schemas/common.ts';
import { SERVER_VERSION } from '../../config.ts';
import { utcSeconds } from '../../lib/time.ts';

const Ping = Type.Object(
  {
    ok: Type.Boolean(),
    authenticated: Type.Boolean({ description: 'whether a valid key was presented' }),
    tier: Type.String({ description: '`free` or `paid`' }),
    server_time_utc: Type.String({ description: 'YYYY-MM-DDTHH:MM:SSZ' }),
    server_version: Type.String(),
    rate_limit_remaining: Nullable(
      Type.Integer({
        description:
          'remaining calls today: the same figure as the RateLimit-Remaining header; null for paid keys. Anonymous pings are not counted, so a fresh address sees the full free-tier limit; its other calls count per address (Japan-time day).',
      }),
    ),
  },
  { $id: 'Ping' },
);

const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/ping',
    {
      config: { access: 'public', counter: 'daily', countsAnonymous: false },
      schema: {
        operationId: 'ping',
        tags: ['meta'],
        summary: 'Authentication and quota status',
        description:
          "Only authenticated calls are counted (and recorded as usage events); an anonymous ping takes nothing from its address's allowance but is refused once that is spent. Ping is never billed.",
        response: { 200: Ping, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const identity = request.identity;
      const keyed = identity.kind === 'key';
      const tier = keyed ? identity.key.tier : 'free';
      // What the limits hook took this call from, as the RateLimit-Remaining header says (docs/decisions/0263-ping-remaining-agrees-with-the-header.md).
      const remaining = keyed && tier === 'paid' ? null : (request.quota?.remaining ?? (keyed ? app.config.freeDailyLimit : app.config.anonDailyLimit));
      return {
        ok: true,
        authenticated: keyed,
        tier,
        server_time_utc: utcSeconds(),
        server_version: SERVER_VERSION,
        rate_limit_remaining: remaining,
      };
    },
  );
};

export default pingRoutes;
