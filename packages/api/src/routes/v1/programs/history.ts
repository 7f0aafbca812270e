// GET /v1/programs/{unified_id}/history: the dataset versions in which a
// programme appeared, changed or disappeared (from the change feed in the
// state store, so a removed programme keeps its history).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import { ProgramHistory } from '../../../schemas/changes.ts';
import { getProgramRow } from '../../../catalog/programs/records.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { DATA_READ } from '../../operation.ts';

const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:unified_id/history',
    {
      config: DATA_READ,
      schema: {
        operationId: 'getProgramHistory',
        tags: ['programs', 'changes'],
        summary: "A programme's versions: when the feed first saw it, and every creation, amendment (with the changed fields) and removal",
        params: Type.Object({ unified_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: ProgramHistory, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const id = request.params.unified_id;
      const inCatalogue = getProgramRow(app.catalog.db, id) !== undefined;
      const history = await app.state.changes.recordHistory('program', id);
      if (!inCatalogue && history.firstVersion === null) throw new HttpError(404, `Program not found: ${id}`);
      const versions = [];
      const baseline = history.firstVersion === null ? null : await app.state.changes.version(history.firstVersion);
      if (baseline?.baseline) versions.push({ version: baseline.version, recorded_at: baseline.recordedAt, change: 'baseline', event_id: null, changes: null });
      for (const e of history.events) {
        versions.push({ version: e.version, recorded_at: e.recordedAt, change: e.type.split('.')[1], event_id: `chg_${e.seq}`, changes: e.changes });
      }
      return { unified_id: id, in_catalogue: inCatalogue, versions };
    },
  );
};

export default historyRoutes;
