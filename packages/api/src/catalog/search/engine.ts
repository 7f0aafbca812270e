// The programme search engine, top to bottom (its owner, which reads the
// request and shapes the answer, is catalog/programs/search.ts): match (posting lists of
// the terms, intersected) -> structured filters -> score -> order -> page
// (offset or keyset cursor) -> facets. One programme is one row already: the
// index holds canonical records only (ingest decided which,
// ingest/canonical-records.ts), so a filter sees the programme's own record
// and totals add up under every filter.
//
// Cost: matching is bounded by the rarest term's matches; filters and scoring
// are a few operations per match on in-memory columns; the
// ordered list of a query is kept in a bounded LRU keyed by the normalised
// query, filters and sort, so the pages of one search and repeated searches
// do no work again. The catalogue is read-only; a new catalogue is a new
// SearchIndex with empty caches (invalidation by construction).
import { FACETS, type Facet } from './facets.ts';
import { intersectAll, unionAll, type ProgramColumns, type SearchIndex } from './index.ts';
import { Lru } from '../../lib/lru.ts';
import { RESULT_ENTRY_BYTES, RESULT_LIST_BYTES } from '../../lib/cache-budget.ts';
import { idf, prepareQuery, priorScore, queryFreePriors, scoreRow, type PreparedQuery, type ScoreParts } from './rank.ts';
import type { Place } from '@jp-support/vocab';
import type { UnderstoodQuery } from './understand.ts';
import { needOfQuery, type Need } from './need.ts';
import { decodeCursor, encodeCursor, type CursorKey } from './cursor.ts';

export type SortOrder = 'relevance' | 'amount' | 'deadline' | 'name';

/** A filter of the request: a row test with its value (the parameter table's `accepts`, catalog/programs/parameters.ts). */
export interface EngineFilter {
  readonly name: string;
  readonly value: unknown;
  readonly accepts: (row: ProgramColumns, value: unknown) => boolean;
}

/** The programmes a search selects and their order, read once (catalog/programs/query.ts). */
export interface EngineQuery {
  /** Free text understood, or null (none, or nothing searchable in it). */
  readonly text: UnderstoodQuery | null;
  readonly filters: readonly EngineFilter[];
  /** Where the applicant is (applicable_in): a ranking signal beside the filter; null when not given. */
  readonly place?: Place | null;
  /** What the applicant needs (a match profile; else what q says): the ranking's fit part. */
  readonly need?: Need;
  readonly sort: SortOrder;
  /** Today in Japan (YYYY-MM-DD), for sort=deadline. */
  readonly today: string;
  /** Canonical key of text, filter values and order: requests with one key share one ordered list. */
  readonly key: string;
}

export interface SearchRequest {
  query: EngineQuery;
  limit: number;
  offset: number;
  cursor?: string;
  facets?: readonly Facet[];
  explain?: boolean;
}

export interface SearchHit {
  pid: number;
  parts?: ScoreParts;
}

export interface SearchPage {
  total: number;
  hits: SearchHit[];
  nextCursor: string | null;
  facets?: Record<string, Record<string, number>>;
  understood: UnderstoodQuery | null;
}

interface Entry {
  pid: number;
  score: number;
  /** Its sort key (computed once, so sorting allocates nothing). */
  key: CursorKey;
}

interface Ordered {
  /** Every programme; in order up to `sorted` (the rest is sorted on first need, see orderedUpTo). */
  entries: Entry[];
  sorted: number;
  compare: (a: Entry, b: CursorKey) => number;
  keyOf: (e: Entry) => CursorKey;
}

export class CursorError extends Error {}

/** At most this many matches get the full score (the rest are ordered by their prior). */
export const SCORE_LIMIT = 600;
// Matches beyond SCORE_LIMIT rank after every fully scored one.
const BELOW_SCORED = 1000;

export class ProgramSearch {
  private readonly results = new Lru<string, Ordered>(RESULT_LIST_BYTES);

  readonly index: SearchIndex;
  /**
   * Work done computing ordered lists (cache misses), summed: candidates
   * filtered, rows scored in full, rows given only the prior, entries built.
   * test/catalog/search-cost.test.ts bounds it per query over the bench's long tail.
   */
  readonly work = { orders: 0, candidates: 0, scored: 0, priors: 0, entries: 0 };

  /** The query-free part of each row's prior (rank.ts#queryFreePriors). */
  private readonly queryFree: Float64Array;

  constructor(index: SearchIndex) {
    this.index = index;
    this.queryFree = queryFreePriors(index);
  }

  /** Bytes of ordered result lists held (estimate), for /metrics. */
  get resultBytes(): number {
    return this.results.weight;
  }

  search(req: SearchRequest): SearchPage {
    const { text: understood, key } = req.query;
    let ordered = this.results.get(key);
    if (!ordered) {
      ordered = this.order(req.query);
      this.results.set(key, ordered, (ordered.entries.length + 1) * RESULT_ENTRY_BYTES);
    }
    const { entries } = ordered;
    let start = req.offset;
    if (req.cursor !== undefined) {
      const after = decodeCursor(req.cursor, key);
      if (!after) throw new CursorError('cursor: not a cursor of this search (filters, q and sort must be those of the call that returned it)');
      orderedUpTo(ordered, entries.length);
      start = firstAfter(entries, ordered.compare, after);
    }
    orderedUpTo(ordered, start + req.limit);
    const slice = entries.slice(start, start + req.limit);
    const prepared = understood && req.explain ? this.prepare(understood, req.query.place ?? null, req.query.need ?? needOfQuery(understood)) : null;
    const hits = slice.map(
      (e): SearchHit => ({
        pid: e.pid,
        ...(prepared ? { parts: scoreRow(this.index, prepared, this.index.rows[e.pid]) } : {}),
      }),
    );
    const last = slice[slice.length - 1];
    const nextCursor = last && start + slice.length < entries.length ? encodeCursor(key, last.key) : null;
    return {
      total: entries.length,
      hits,
      nextCursor,
      ...(req.facets && req.facets.length > 0 ? { facets: this.facets(entries, req.facets) } : {}),
      understood,
    };
  }

  private prepare(q: UnderstoodQuery, place: Place | null, need: Need | undefined): PreparedQuery {
    const n = this.index.size;
    return prepareQuery(
      q,
      q.required.map((g) => idf(n, unionAll(g.alternatives.map((a) => this.index.postingsOf(a))).length)),
      place,
      need,
      q.optional.map((g) => idf(n, unionAll(g.alternatives.map((a) => this.index.postingsOf(a))).length)),
    );
  }

  /** Every programme the query selects, one entry per programme, in order. */
  private order(query: EngineQuery): Ordered {
    const { text: q, sort } = query;
    const index = this.index;
    const rows = index.rows;
    const accept = filterOf(query);
    let candidates: Int32Array;
    let prepared: PreparedQuery | null = null;
    if (q) {
      const lists = q.required.map((g) => unionAll(g.alternatives.map((a) => index.postingsOf(a))));
      candidates = intersectAll(lists);
      prepared = prepareQuery(
        q,
        lists.map((l) => idf(index.size, l.length)),
        query.place ?? null,
        query.need ?? needOfQuery(q),
        q.optional.map((g) => idf(index.size, unionAll(g.alternatives.map((a) => index.postingsOf(a))).length)),
      );
      candidates = relaxed(lists, candidates, (pid) => rows[pid] !== undefined && accept(rows[pid]));
    } else {
      // Read in browse order, so the default order needs no sort below.
      candidates = index.browseOrder;
    }
    // The programmes that pass the filters; when there are very many (a broad
    // word), only the SCORE_LIMIT best by a cheap prior (page kind, tier,
    // place, the word in the name) get the full score, the rest follow in
    // prior order: ranking work is capped, total stays exact.
    const accepted: number[] = [];
    this.work.orders++;
    this.work.candidates += candidates.length;
    for (let i = 0; i < candidates.length; i++) {
      const r = rows[candidates[i]];
      if (r !== undefined && accept(r)) accepted.push(candidates[i]);
    }
    const n = accepted.length;
    const scores = new Float64Array(n);
    if (prepared) {
      let threshold = -Infinity;
      if (n > SCORE_LIMIT) {
        const queryFree = this.queryFree;
        for (let i = 0; i < n; i++) scores[i] = priorScore(prepared, rows[accepted[i]], queryFree[accepted[i]]) - BELOW_SCORED;
        this.work.priors += n;
        threshold = Float64Array.from(scores).sort()[n - SCORE_LIMIT];
      }
      // Ties at the threshold could let more than SCORE_LIMIT through: the count caps it.
      let scored = 0;
      for (let i = 0; i < n && scored < SCORE_LIMIT; i++) {
        if (scores[i] >= threshold) {
          scores[i] = scoreRow(index, prepared, rows[accepted[i]]).total;
          scored++;
        }
      }
      this.work.scored += scored;
    }
    const entries: Entry[] = new Array(n);
    for (let i = 0; i < n; i++) entries[i] = { pid: accepted[i], score: scores[i], key: null! };
    this.work.entries += entries.length;
    const { compare, keyOf } = comparatorFor(index, sort, query.today);
    for (const e of entries) e.key = keyOf(e);
    // Without q in the default order the entries were built in that order already.
    if (q === null && sort === 'relevance') return { entries, sorted: entries.length, compare, keyOf };
    if (sort !== 'relevance' || !prepared || n <= SCORE_LIMIT) {
      entries.sort((a, b) => compare(a, b.key));
      return { entries, sorted: entries.length, compare, keyOf };
    }
    // Relevance over many matches: the fully scored head is sorted now; the
    // tail (ordered by prior, all below the head) when a page reaches it.
    const head = entries.filter((e) => e.score > -BELOW_SCORED / 2).sort((a, b) => compare(a, b.key));
    const tail = entries.filter((e) => e.score <= -BELOW_SCORED / 2);
    return { entries: [...head, ...tail], sorted: head.length, compare, keyOf };
  }

  private facets(entries: Entry[], facets: readonly Facet[]): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const facet of facets) {
      const counts = new Map<string, number>();
      const values = FACETS[facet];
      for (const e of entries) {
        for (const v of values(this.index.rows[e.pid])) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      out[facet] = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
    }
    return out;
  }
}

/** Below this many programmes holding every term, rows that lack one term (then two …) are added, ranked after. */
export const FULL_MATCHES_WANTED = 10;

/**
 * Every term must match, unless that leaves fewer than FULL_MATCHES_WANTED
 * rows: then rows matching all terms but one join (ranked below by the
 * coverage part), and so on down to one term. A query of one term is never
 * relaxed. Bounded by the union of the terms' posting lists.
 */
function relaxed(lists: Int32Array[], full: Int32Array, accepted: (pid: number) => boolean): Int32Array {
  const count = (pids: Iterable<number>): number => {
    let n = 0;
    for (const pid of pids) if (accepted(pid)) n++;
    return n;
  };
  if (lists.length < 2 || count(full) >= FULL_MATCHES_WANTED) return full;
  const matched = new Map<number, number>();
  for (const list of lists) for (const pid of list) matched.set(pid, (matched.get(pid) ?? 0) + 1);
  let out = full;
  for (let need = lists.length - 1; need >= 1; need--) {
    out = Int32Array.from([...matched].filter(([, n]) => n >= need).map(([pid]) => pid)).sort();
    if (count(out) >= FULL_MATCHES_WANTED) break;
  }
  return out;
}

/** The request's filters as one row test (every filter must pass). */
function filterOf(query: EngineQuery): (r: ProgramColumns) => boolean {
  const filters = query.filters;
  return (r) => {
    for (const f of filters) if (!f.accepts(r, f.value)) return false;
    return true;
  };
}

/**
 * The order of each sort and the key a cursor carries. Every order ends with
 * the browse rank (tier, primary_name, pid: the contract's order without q),
 * so it is total and a keyset cursor resumes exactly.
 */
function comparatorFor(index: SearchIndex, sort: SortOrder, today = ''): Pick<Ordered, 'compare' | 'keyOf'> {
  const rows = index.rows;
  const keyOf = (e: Entry): CursorKey => {
    const r = rows[e.pid];
    return { s: e.score, a: r.amountMax, d: r.windowEnd, b: r.browseRank, n: r.nameRank };
  };
  const byBrowse = (a: Entry, k: CursorKey): number => rows[a.pid].browseRank - k.b;
  switch (sort) {
    case 'relevance':
      return { keyOf, compare: (a, k) => k.s - a.score || byBrowse(a, k) };
    case 'amount':
      // Largest upper amount first; unknown amounts last.
      return {
        keyOf,
        compare: (a, k) => {
          const x = rows[a.pid].amountMax ?? -1;
          const y = k.a ?? -1;
          return y - x || byBrowse(a, k);
        },
      };
    case 'deadline': {
      // Open deadlines soonest first, then no deadline, then deadlines already past (latest first).
      const bucket = (d: string | null): number => (d === null ? 1 : d >= today ? 0 : 2);
      return {
        keyOf,
        compare: (a, k) => {
          const x = rows[a.pid].windowEnd;
          const y = k.d;
          const bx = bucket(x);
          const by = bucket(y);
          if (bx !== by) return bx - by;
          if (x !== y && x !== null && y !== null) return bx === 0 ? (x < y ? -1 : 1) : x < y ? 1 : -1;
          return byBrowse(a, k);
        },
      };
    }
    case 'name':
      return { keyOf, compare: (a, k) => rows[a.pid].nameRank - k.n };
  }
}

/** Make the first `count` entries (at least) ordered: sorts the unsorted tail once. */
function orderedUpTo(ordered: Ordered, count: number): void {
  if (count <= ordered.sorted || ordered.sorted >= ordered.entries.length) return;
  const tail = ordered.entries.slice(ordered.sorted).sort((a, b) => ordered.compare(a, b.key));
  ordered.entries.splice(ordered.sorted, tail.length, ...tail);
  ordered.sorted = ordered.entries.length;
}

/** Index of the first entry ordered after `key` (binary search; the list is sorted by `compare`). */
function firstAfter(entries: Entry[], compare: Ordered['compare'], key: CursorKey): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(entries[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
