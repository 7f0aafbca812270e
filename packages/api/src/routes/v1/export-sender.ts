// Streaming a search as an export (`format=csv` or `format=jsonl`) on routes
// that declare `unitRows` (plugins/route-policy.ts). Before the first byte:
// the rows this export will send are counted (the search's total from
// `offset`, at most `max_rows`, at most EXPORT_MAX_ROWS), and their units
// (one per started `unitRows` rows) are taken from the caller's allowance or
// checked against its cap (plugins/limits.ts `takeUnits`, 429/402 with
// nothing sent). Then the rows go out one at a time from the catalogue
// cursor, a chunk per CHUNK_ROWS rows, never the whole result in memory,
// and the event loop turns between two chunks (however fast the client
// reads), so an export of the whole catalogue never holds other requests
// for more than one chunk's work (issue 25 item 5).
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { policyOf } from '../../plugins/route-policy.ts';
import { takeUnits } from '../../plugins/limits.ts';
import { columnsOf } from '../../exports/columns.ts';
import { csvHeader, csvLine, jsonLine } from '../../exports/encode.ts';

export type ExportFormat = 'csv' | 'jsonl';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

export interface ExportRequest {
  format: ExportFormat;
  /** File name without extension, e.g. `programs`. */
  name: string;
  /** The row's response schema: the CSV columns. */
  rowSchema: TSchema;
  /** Rows the caller asked for at most (max_rows; `limit` does not apply to exports); capped by EXPORT_MAX_ROWS. */
  maxRows: number | undefined;
  offset: number;
  /** Runs the search: the total and the rows from `offset`, at most `limit`. */
  open: (window: { offset: number; limit: number }) => { total: number; rows: Iterable<Record<string, unknown>> };
}

/** Rows per chunk written to the socket: a full-shape row is about 1.7 KB and tens of µs of work to read, shape and encode. */
export const CHUNK_ROWS = 50;

export async function sendExport(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, e: ExportRequest): Promise<FastifyReply> {
  const unitRows = policyOf(request).unitRows!;
  const cap = app.config.exportMaxRows;
  const limit = Math.min(e.maxRows ?? cap, cap);
  const { total, rows } = e.open({ offset: e.offset, limit });
  const count = Math.max(0, Math.min(total - e.offset, limit));
  await takeUnits(app, request, reply, Math.max(1, Math.ceil(count / unitRows)));

  const columns = e.format === 'csv' ? columnsOf(e.rowSchema) : [];
  const encode = e.format === 'csv' ? (r: Record<string, unknown>) => csvLine(columns, r) : jsonLine;
  async function* chunks(): AsyncGenerator<string> {
    if (e.format === 'csv') yield csvHeader(columns);
    let chunk = '';
    let n = 0;
    for (const row of rows) {
      chunk += encode(row);
      if (++n % CHUNK_ROWS === 0) {
        yield chunk;
        chunk = '';
        await nextTurn();
      }
    }
    if (chunk) yield chunk;
  }
  const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  reply
    .type(CONTENT_TYPES[e.format])
    .header('content-disposition', `attachment; filename="${e.name}-${stamp}.${e.format}"`)
    .header('x-total-count', String(total))
    .header('x-export-rows', String(count))
    .header('x-export-truncated', String(e.offset + count < total))
    .header('x-export-units', String(request.units));
  return reply.send(Readable.from(chunks(), { objectMode: false }));
}
