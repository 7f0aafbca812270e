// GET /v1/programs/search?format=csv|jsonl: every match of the search, in
// its order, as the page shows its rows (hit-row.ts) in the shape `fields`
// selects (CSV columns from that shape's schema), streamed page by page
// through the engine's cursor (catalog/queries/program-query.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProgramHit, ProgramHitFull, ProgramHitMinimal, type SearchQueryT } from '../../../schemas/programs.ts';
import type { FieldsShape } from '../../../catalog/queries/programs.ts';
import { PROGRAM_QUERY_FIELDS, streamProgramSearch, type ProgramQuery } from '../../../catalog/queries/program-query.ts';
import { jstDate } from '../../../lib/time.ts';
import { sendExport } from '../export-sender.ts';
import { checkedQuery } from '../me/saved-searches.ts';
import { hitRow } from './hit-row.ts';

/** The row schema of an exported hit: the page's, less `score` (explain is for pages, not files). */
const withoutScore = <T extends { properties: Record<string, unknown> }>(schema: T): T => {
  const { score: _score, ...properties } = schema.properties;
  return { ...schema, properties } as T;
};
const ROW_SCHEMA = { minimal: withoutScore(ProgramHitMinimal), default: withoutScore(ProgramHit), full: withoutScore(ProgramHitFull) } as const;

export function exportPrograms(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, q: SearchQueryT): Promise<FastifyReply> {
  const fields = (q.fields ?? 'default') as FieldsShape;
  const query = checkedQuery(
    Object.fromEntries(PROGRAM_QUERY_FIELDS.filter((f) => q[f] !== undefined).map((f) => [f, q[f]])) as ProgramQuery,
    'Invalid querystring: ',
  );
  const today = jstDate();
  return sendExport(app, request, reply, {
    format: q.format as 'csv' | 'jsonl',
    name: 'programs',
    rowSchema: ROW_SCHEMA[fields],
    maxRows: q.max_rows,
    offset: q.offset ?? 0,
    open: (window) => {
      // One catalogue for the whole stream: a swap mid-export (catalog/live.ts) must not mix two files' rows.
      const catalog = app.catalog;
      const { total, hits } = streamProgramSearch(catalog, query, window, today);
      return {
        total,
        rows: (function* () {
          for (const { row, hit } of hits) yield hitRow(catalog.search, row, hit, fields) as Record<string, unknown>;
        })(),
      };
    },
  });
}
