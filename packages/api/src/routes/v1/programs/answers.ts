// The answers of GET /v1/programs/search and GET /v1/programs/{id}, as
// functions of the request's (validated) values: the routes send them, and the
// MCP tools' in-process calls (routes/mcp-calls.ts) take them without a
// second pass through HTTP. One place for what an answer is, two callers.
import { Type } from 'typebox';
import type { Catalog } from '../../../catalog/catalog.ts';
import { ProgramQueryError, readSearchRequest, type SearchRequest } from '../../../catalog/programs/query.ts';
import type { ProgramSearchParameter } from '../../../catalog/programs/parameters.ts';
import { CursorError } from '../../../catalog/search/engine.ts';
import { answersOf, type CachedBody } from '../../../http/answers.ts';
import { jstDate } from '../../../lib/time.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { Fields } from '../../../schemas/programs.ts';

/** The detail route's path parameters and query string. */
export const DetailParams = Type.Object({ unified_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DetailQuery = Type.Object({ fields: Type.Optional(Fields) }, { additionalProperties: false });

/** A search request read through the parameter table; 400 for a value the table refuses. */
export function readSearch(query: Record<string, unknown>, table: readonly ProgramSearchParameter[]): SearchRequest {
  try {
    return readSearchRequest(query, jstDate(), table);
  } catch (err) {
    if (err instanceof ProgramQueryError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
    throw err;
  }
}

/** The page of a (non-export) search, kept whole per catalogue; 400 for a cursor of another query. */
export function searchPage(catalog: Catalog, { query, page }: SearchRequest): CachedBody {
  const key = JSON.stringify([query.key, page.limit, page.offset, page.cursor ?? null, page.fields, page.explain, page.facets]);
  try {
    return answersOf(catalog).page(key, () => catalog.programs.page(query, page));
  } catch (err) {
    if (err instanceof CursorError) throw new HttpError(400, `Invalid querystring: ${err.message}`);
    throw err;
  }
}

/** One programme in the asked shape (full detail unless minimal), kept whole per catalogue; 404 for an unknown id. */
export function programRecord(catalog: Catalog, unifiedId: string, fields: string | undefined): CachedBody {
  const pid = catalog.programs.pidOf(unifiedId);
  // A detail is the full shape (with source confidence) unless minimal is asked for.
  const view = fields === 'minimal' ? 'minimal' : 'detail';
  const answer =
    pid === undefined
      ? undefined
      : answersOf(catalog)
          .records(view, [pid], (missing) => catalog.programs.json(missing, view))
          .get(pid);
  if (!answer) throw new HttpError(404, `Program not found: ${unifiedId}`);
  return answer;
}
