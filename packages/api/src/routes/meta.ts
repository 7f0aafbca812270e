// Unversioned operational endpoints: /meta (and its /v1 alias) and /healthz.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Attribution, ATTRIBUTION, errorResponses } from '../schemas/common.ts';

const Meta = Type.Object(
  {
    total_programs: Type.Integer(),
    tier_counts: Type.Record(Type.String(), Type.Integer()),
    prefecture_counts: Type.Record(Type.String(), Type.Integer(), { description: 'prefecture name to count; `_none` = prefecture null' }),
    exclusion_rules_count: Type.Integer(),
    last_ingested_at: Type.String({ description: 'UTC timestamp of the last data load' }),
    data_as_of: Type.String({ description: 'reference date of the underlying data (YYYY-MM-DD)' }),
    record_counts: Type.Record(Type.String(), Type.Integer(), { description: 'rows per record set' }),
    attribution: Attribution,
  },
  { $id: 'Meta' },
);

const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const handler = async () => ({ ...app.catalog.meta, attribution: ATTRIBUTION });
  const schema = (operationId: string) => ({
    operationId,
    tags: ['meta'],
    summary: 'Dataset statistics',
    response: { 200: Meta, ...errorResponses(401, 429) },
  });
  const config = { access: 'public', counter: 'daily', billed: true } as const;
  app.get('/meta', { config, schema: schema('getMeta') }, handler);
  app.get('/v1/meta', { config, schema: schema('getMetaV1') }, handler);

  app.get('/healthz', {
    config: { access: 'public' },
    schema: {
      operationId: 'healthz',
      tags: ['meta'],
      summary: 'Liveness probe (checks the database)',
      response: { 200: Type.Object({ status: Type.String() }), 503: Type.Object({ status: Type.String(), detail: Type.String() }) },
    },
  }, async (_request, reply) => {
    let ok = false;
    try {
      ok = app.catalog.db.ping() && (await app.healthChecks.every());
    } catch {
      ok = false;
    }
    if (!ok) return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable' });
    return { status: 'ok' };
  });
};

export default metaRoutes;
