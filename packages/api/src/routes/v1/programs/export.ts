// GET /v1/programs/search?format=csv|jsonl: every match of the search, in
// its order, as the page shows its rows (the shape `fields` selects; the full
// shape names the programme's other records; CSV columns from that shape's schema), streamed
// page by page through the engine's cursor (catalog/programs/search.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProgramHit, ProgramHitFull, ProgramHitMinimal } from '../../../schemas/programs.ts';
import type { SearchRequest } from '../../../catalog/programs/query.ts';
import { hitMembers, shapeRow } from '../../../catalog/programs/records.ts';
import { sendExport } from '../export-sender.ts';

/** The row schema of an exported hit: the page's, less `score` (explain is for pages, not files). */
const withoutScore = <T extends { properties: Record<string, unknown> }>(schema: T): T => {
  const { score: _score, ...properties } = schema.properties;
  return { ...schema, properties } as T;
};
const ROW_SCHEMA = { minimal: withoutScore(ProgramHitMinimal), default: withoutScore(ProgramHit), full: withoutScore(ProgramHitFull) } as const;

export function exportPrograms(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, search: SearchRequest): Promise<FastifyReply> {
  const { query, page } = search;
  const fields = page.fields;
  return sendExport(app, request, reply, {
    format: search.export!.format,
    name: 'programs',
    rowSchema: ROW_SCHEMA[fields],
    maxRows: search.export!.maxRows,
    offset: page.offset,
    open: (window) => {
      // One catalogue for the whole stream: a swap mid-export (catalog/live.ts) must not mix two files' rows.
      const programs = app.catalog.programs;
      const { total, hits } = programs.stream(query, window);
      return {
        total,
        rows: (function* () {
          for (const { row, hit } of hits) yield Object.assign(shapeRow(row, fields) as object, hitMembers(hit));
        })(),
      };
    },
  });
}
