// Search answers as tool payloads.
import type { Payload } from './define.ts';

/** A search envelope from an API answer: the list plus total/limit/offset, other top-level keys kept. */
export function asSearch(body: unknown): Payload {
  const b = (body ?? {}) as Payload;
  const results = Array.isArray(b.results) ? b.results : Array.isArray(body) ? body : [];
  return { ...b, total: typeof b.total === 'number' ? b.total : results.length, results };
}

/** The rows of a search answer. */
export const rowsOf = (body: unknown): Record<string, unknown>[] => asSearch(body).results as Record<string, unknown>[];

/** A search payload that explains an empty page. */
export function noHits(what: string, out: Payload): Payload {
  if ((out.results as unknown[]).length === 0) out.explanation = `No ${what} matched these filters.`;
  return out;
}

/**
 * Drop empty strings and empty lists from a query (the client already drops
 * undefined and null): an empty tool argument means "no filter", never
 * "match the empty string".
 */
export function compact<T extends object>(query: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as T;
}
