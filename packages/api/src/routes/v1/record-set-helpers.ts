// What every record-set route shares (routes/v1/record-sets.ts and the
// further routes of a set, e.g. routes/v1/laws/articles.ts).
import { HttpError } from '../../plugins/errors.ts';
import type { RouteDeclaration } from '../../plugins/route-policy.ts';
import { DATA_READ } from '../operation.ts';

/** Every record-set route: open to anyone, counted against the daily allowance, one billed unit for a paid key. */
export const RECORD_SET_ROUTE: RouteDeclaration = DATA_READ;
/** The search of a record set also exports (format=csv|jsonl): one unit per started 100 rows. */
export const RECORD_SEARCH_ROUTE: RouteDeclaration = { ...RECORD_SET_ROUTE, unitRows: 100 };

/** The page of a search: limit 1–100 (default 20), offset >= 0 (schema-checked). */
export function page(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: query.limit ?? 20, offset: query.offset ?? 0 };
}

/** 404 for an unknown id, naming the record kind. */
export function notFound(kind: string, id: string): never {
  throw new HttpError(404, `${kind} not found: ${id.slice(0, 200)}`);
}
