// Unversioned operational endpoints: /meta (and its /v1 alias) and /healthz.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Attribution, ATTRIBUTION } from '../schemas/common.ts';
import { DATA_READ, operation } from './operation.ts';

const Meta = Type.Object(
  {
    total_programs: Type.Integer(),
    tier_counts: Type.Record(Type.String(), Type.Integer()),
    prefecture_counts: Type.Record(Type.String(), Type.Integer(), { description: 'prefecture name to count; `_none` = prefecture null' }),
    exclusion_rules_count: Type.Integer(),
    last_ingested_at: Type.String({ description: 'UTC timestamp of the last data load' }),
    data_as_of: Type.String({ description: 'reference date of the underlying data (YYYY-MM-DD)' }),
    record_counts: Type.Record(Type.String(), Type.Integer(), { description: 'rows per record set' }),
    programs_with_window: Type.Optional(
      Type.Integer({ description: 'Programmes whose application window has a known closing date: deadline answers cover these only' }),
    ),
    attribution: Attribution,
  },
  { $id: 'Meta' },
);

const ReadinessChecks = Type.Object({ catalog: Type.Boolean(), state: Type.Boolean(), migrations: Type.Boolean() });
const DatasetVersion = Type.String({
  description: 'The dataset version this process serves: the content address of the source overlays its catalogue was built from (`npm run cli -- versions`)',
});
const Readiness = Type.Object({ status: Type.String(), checks: ReadinessChecks, dataset_version: Type.Optional(DatasetVersion) });
const ReadinessFailed = Type.Object({ status: Type.String(), detail: Type.String(), checks: ReadinessChecks, dataset_version: Type.Optional(DatasetVersion) });

const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const handler = async () => ({ ...app.catalog.meta, attribution: ATTRIBUTION });
  const meta = (operationId: string) => operation(DATA_READ, 'meta', operationId, 'Dataset statistics', { response: { 200: Meta } }, [401, 429]);
  app.get('/meta', meta('getMeta'), handler);
  app.get('/v1/meta', meta('getMetaV1'), handler);

  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'healthz',
        tags: ['meta'],
        summary: 'Liveness probe (checks the database)',
        response: { 200: Type.Object({ status: Type.String() }), 503: Type.Object({ status: Type.String(), detail: Type.String() }) },
      },
    },
    async (_request, reply) => {
      let ok = false;
      try {
        ok = app.catalog.db.ping() && (await app.healthChecks.every());
      } catch {
        ok = false;
      }
      if (!ok) return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable' });
      return { status: 'ok' };
    },
  );

  // Readiness, beside liveness: may this process take traffic now? The
  // catalogue is open, the state store answers, and every migration this
  // code knows is applied. A load balancer takes the process out while 503.
  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'readyz',
        tags: ['meta'],
        summary: 'Readiness probe: catalogue open, state store reachable, migrations applied; names the dataset version served',
        response: { 200: Readiness, 503: ReadinessFailed },
      },
    },
    async (_request, reply) => {
      const checks = { catalog: false, state: false, migrations: false };
      let datasetVersion: string | undefined;
      try {
        const catalog = app.catalog;
        checks.catalog = catalog.db.ping();
        datasetVersion = catalog.datasetVersion;
      } catch {
        checks.catalog = false;
      }
      checks.state = await app.state.ping();
      if (checks.state) {
        try {
          const { applied, known } = await app.state.migrationStatus();
          checks.migrations = known.every((v) => applied.includes(v));
        } catch {
          checks.migrations = false;
        }
      }
      const failed = Object.entries(checks)
        .filter(([, ok]) => !ok)
        .map(([name]) => name);
      if (failed.length) {
        return reply
          .code(503)
          .header('Retry-After', '5')
          .send({ status: 'unavailable', detail: `Not ready: ${failed.join(', ')}`, checks, dataset_version: datasetVersion });
      }
      return { status: 'ready', checks, dataset_version: datasetVersion };
    },
  );
};

export default metaRoutes;
