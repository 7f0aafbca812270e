// Program search for the route and the features built on it (saved
// searches, exports, deadline calendars): the parameters of GET
// /v1/programs/search by their REST names, turned into the search engine's
// request in one place (`searchRequestOf`, which the route uses too) and run
// through the one search implementation (catalog/search/engine.ts), never a
// copy of it.
import { normalizePrefecture } from '@jp-support/vocab';
import type { Catalog } from '../catalog.ts';
import type { SearchHit, SearchRequest, SortOrder } from '../search/engine.ts';
import { MAX_QUERY_TERMS, MAX_TERMS_DETAIL, understandQuery } from '../search/understand.ts';
import { getProgramRowsByPid, normalizeAuthorityLevel, type ProgramRow } from './programs.ts';

/** The filter parameters of GET /v1/programs/search (paging, shape, facets excluded), as a saved search stores them. */
export interface ProgramQuery {
  q?: string;
  tier?: string[];
  prefecture?: string;
  authority_level?: string;
  funding_purpose?: string[];
  target_type?: string[];
  amount_min?: number;
  amount_max?: number;
  include_excluded?: boolean;
  sort?: SortOrder;
}

/** The parameter names a saved search keeps (the search's, less paging, shape, facets, cursor and explain). */
export const PROGRAM_QUERY_FIELDS = [
  'q',
  'tier',
  'prefecture',
  'authority_level',
  'funding_purpose',
  'target_type',
  'amount_min',
  'amount_max',
  'include_excluded',
  'sort',
] as const;

/** A parameter the search refuses (the caller answers 400 with the message). */
export class ProgramQueryError extends Error {}

const AUTHORITY_DETAIL = 'authority_level: must be one of national, prefecture, municipality, financial (or 国, 都道府県, 市区町村, 公庫)';

/** The engine's request for these parameters (no paging); throws ProgramQueryError for a value the search refuses. */
export function searchRequestOf(query: ProgramQuery, today: string): Omit<SearchRequest, 'limit' | 'offset'> {
  let authorityLevel: string | undefined;
  if (query.authority_level !== undefined) {
    authorityLevel = normalizeAuthorityLevel(query.authority_level) ?? undefined;
    if (!authorityLevel) throw new ProgramQueryError(AUTHORITY_DETAIL);
  }
  const understood = query.q !== undefined ? understandQuery(query.q) : null;
  if (understood && understood.termCount > MAX_QUERY_TERMS) throw new ProgramQueryError(`${MAX_TERMS_DETAIL} (got ${understood.termCount})`);
  return {
    q: query.q,
    tier: query.tier,
    // Lenient: 東京, Tokyo, tokyo-to -> 東京都; an unknown name stays as given (and matches nothing).
    prefecture: query.prefecture === undefined ? undefined : (normalizePrefecture(query.prefecture) ?? query.prefecture),
    authorityLevel,
    fundingPurpose: query.funding_purpose,
    targetType: query.target_type,
    amountMin: query.amount_min,
    amountMax: query.amount_max,
    includeExcluded: query.include_excluded ?? false,
    sort: query.sort,
    today,
  };
}

/** Hits per page read from the engine while streaming. */
const PAGE = 200;

export interface StreamedHit {
  row: ProgramRow;
  hit: SearchHit;
}

/** The hits of a request from `offset`, at most `limit`, a page at a time through the engine's keyset cursor. */
function searchHits(
  catalog: Catalog,
  request: Omit<SearchRequest, 'limit' | 'offset'>,
  window: { offset: number; limit: number },
): { total: number; pages: Iterable<SearchHit[]> } {
  const first = catalog.search.search({ ...request, limit: Math.min(PAGE, window.limit), offset: window.offset });
  return {
    total: first.total,
    pages: (function* () {
      let page = first;
      let left = window.limit;
      for (;;) {
        const hits = page.hits.slice(0, left);
        left -= hits.length;
        if (hits.length) yield hits;
        if (left <= 0 || page.nextCursor === null || page.hits.length === 0) return;
        page = catalog.search.search({ ...request, limit: Math.min(PAGE, left), offset: 0, cursor: page.nextCursor });
      }
    })(),
  };
}

/** The matches of a query in the search's order: the total, and the hits with their catalogue rows from `offset`, at most `limit`. */
export function streamProgramSearch(
  catalog: Catalog,
  query: ProgramQuery,
  window: { offset: number; limit: number },
  today: string,
): { total: number; hits: Iterable<StreamedHit> } {
  const { total, pages } = searchHits(catalog, searchRequestOf(query, today), window);
  return {
    total,
    hits: (function* () {
      for (const hits of pages) {
        const rows = getProgramRowsByPid(
          catalog.db,
          hits.map((h) => h.pid),
        );
        for (const hit of hits) yield { row: rows.get(hit.pid)!, hit };
      }
    })(),
  };
}

/** Which of `ids` the query matches (a record collapsed into another's duplicate group matches with it). */
export function matchingProgramIds(catalog: Catalog, query: ProgramQuery, ids: ReadonlySet<string>, today: string): Set<string> {
  const out = new Set<string>();
  if (ids.size === 0) return out;
  const rows = catalog.search.index.rows;
  const { pages } = searchHits(catalog, searchRequestOf(query, today), { offset: 0, limit: Number.MAX_SAFE_INTEGER });
  for (const hits of pages) {
    for (const hit of hits) for (const pid of [hit.pid, ...hit.also]) if (ids.has(rows[pid].unifiedId)) out.add(rows[pid].unifiedId);
  }
  return out;
}
