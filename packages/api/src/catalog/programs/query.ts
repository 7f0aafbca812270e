// A programme search request, read once: the REST parameters (or a saved
// search's) go through the parameter table (parameters.ts) in its order,
// free text is understood once (search/understand.ts), and what comes out is
// what the engine, the page cache and the exports all take. A value the
// search refuses is a ProgramQueryError (the caller answers 400).
import { type Facet, parseFacets, FACET_NAMES } from '../search/facets.ts';
import type { EngineFilter, EngineQuery, SortOrder } from '../search/engine.ts';
import { MAX_QUERY_TERMS, MAX_TERMS_DETAIL, understandQuery } from '../search/understand.ts';
import type { Place } from '@jp-support/vocab';
import type { FieldsShape } from './records.ts';
import { PROGRAM_SEARCH_PARAMETERS, ProgramQueryError, savedParameters, type ProgramSearchParameter, type ReadValue } from './parameters.ts';

export { ProgramQueryError };

/** The set of programmes a search selects and its order: what a saved search, a calendar and an export keep. */
export interface ProgramQuery extends EngineQuery {
  /** The parameters as given (REST names; text, filters and order only): what a saved search stores. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Which page of the set, in which shape. */
export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
  readonly cursor?: string;
  readonly fields: FieldsShape;
  readonly explain: boolean;
  readonly facets: readonly Facet[];
}

/** A whole GET /v1/programs/search request. */
export interface SearchRequest {
  readonly query: ProgramQuery;
  readonly page: PageRequest;
  /** Set when the answer is a file of every row (format=csv|jsonl). */
  readonly export?: { readonly format: 'csv' | 'jsonl'; readonly maxRows?: number };
}

/**
 * The query of these parameters (REST names; those of other kinds ignored).
 * `today` (Japan date) is what sort=deadline orders by.
 */
export function readProgramQuery(
  params: Readonly<Record<string, unknown>>,
  today: string,
  table: readonly ProgramSearchParameter[] = PROGRAM_SEARCH_PARAMETERS,
): ProgramQuery {
  const given: Record<string, unknown> = {};
  const filters: EngineFilter[] = [];
  const keyParts: unknown[] = [];
  for (const p of savedParameters(table)) {
    const raw = params[p.name];
    if (raw !== undefined) given[p.name] = raw;
    if (p.kind !== 'filter') continue;
    const value = raw === undefined ? p.absent : p.read ? p.read(raw as never) : (raw as ReadValue);
    keyParts.push(value ?? null);
    if (value !== undefined && p.accepts) filters.push({ name: p.name, value, accepts: p.accepts as EngineFilter['accepts'] });
  }
  const q = typeof given.q === 'string' ? given.q : undefined;
  const text = q === undefined ? null : understandQuery(q);
  if (text && text.termCount > MAX_QUERY_TERMS) throw new ProgramQueryError(`${MAX_TERMS_DETAIL} (got ${text.termCount})`);
  // applicable_in is a filter and the ranking's place (its own programmes with the nationwide ones).
  const place = (filters.find((f) => f.name === 'applicable_in')?.value as Place | undefined) ?? null;
  const sort = (given.sort as SortOrder | undefined) ?? 'relevance';
  // One ordered list per distinct (normalised text, filter values, order; today for the deadline order).
  const key = JSON.stringify([text?.normalized ?? null, ...keyParts, sort, sort === 'deadline' ? today : null]);
  return { params: given, text, filters, place, sort, today, key };
}

/** A GET /v1/programs/search query string (validated by its schema) as a request. */
export function readSearchRequest(
  rest: Readonly<Record<string, unknown>>,
  today: string,
  table: readonly ProgramSearchParameter[] = PROGRAM_SEARCH_PARAMETERS,
): SearchRequest {
  const { facets, unknown } = parseFacets((rest.facets as string[] | undefined) ?? []);
  if (unknown !== null) throw new ProgramQueryError(`facets: unknown facet ${JSON.stringify(unknown.slice(0, 50))}; one of ${FACET_NAMES.join(', ')}`);
  const offset = (rest.offset as number | undefined) ?? 0;
  const cursor = rest.cursor as string | undefined;
  if (cursor !== undefined && offset !== 0) throw new ProgramQueryError('cursor and offset cannot be combined (a cursor already says where the page starts)');
  const query = readProgramQuery(rest, today, table);
  const page: PageRequest = {
    limit: (rest.limit as number | undefined) ?? 20,
    offset,
    cursor,
    fields: (rest.fields as FieldsShape | undefined) ?? 'default',
    explain: (rest.explain as boolean | undefined) ?? false,
    facets,
  };
  const format = rest.format;
  if (format === 'csv' || format === 'jsonl') return { query, page, export: { format, maxRows: rest.max_rows as number | undefined } };
  return { query, page };
}
