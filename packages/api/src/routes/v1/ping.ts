// GET /v1/ping: who the server thinks you are, and how much is left today.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable, errorResponses } from '../../schemas/common.ts';
import { SERVER_VERSION } from '../../config.ts';

const Ping = Type.Object(
  {
    ok: Type.Boolean(),
    authenticated: Type.Boolean(),
    tier: Type.String({ description: '`free` or `paid`' }),
    server_time_utc: Type.String({ description: 'YYYY-MM-DDTHH:MM:SSZ' }),
    server_version: Type.String(),
    rate_limit_remaining: Nullable(Type.Integer({ description: 'remaining calls today; null for paid' })),
  },
  { $id: 'Ping' },
);

export function utcSeconds(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/ping', {
    schema: {
      operationId: 'ping',
      tags: ['meta'],
      summary: 'Authentication and quota status',
      response: { 200: Ping, ...errorResponses(401, 429) },
    },
  }, async () => ({
    ok: true,
    authenticated: false,
    tier: 'free',
    server_time_utc: utcSeconds(),
    server_version: SERVER_VERSION,
    rate_limit_remaining: app.config.anonDailyLimit,
  }));
};

export default pingRoutes;
