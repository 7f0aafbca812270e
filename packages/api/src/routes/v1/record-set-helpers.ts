// Small helpers shared by the record-set route groups (loans, tax_rulesets,
// enforcement, laws, case_studies, certifications, bids).
import { HttpError } from '../../plugins/errors.ts';
import { isRealDate } from '../../catalog/loaders/bids.ts';

/** The page of a search: limit 1–100 (default 20), offset >= 0 (schema-checked). */
export function page(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: query.limit ?? 20, offset: query.offset ?? 0 };
}

/** A YYYY-MM-DD parameter (form already checked by the schema) that must name a real day. */
export function dateParam(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && !isRealDate(value)) throw new HttpError(400, `Invalid querystring: ${name}: not a calendar date (${value.slice(0, 20)})`);
  return value;
}

/** 404 for an unknown id, naming the record kind. */
export function notFound(kind: string, id: string): never {
  throw new HttpError(404, `${kind} not found: ${id.slice(0, 200)}`);
}
