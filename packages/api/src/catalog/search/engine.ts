// The programme search engine, top to bottom (its owner, which reads the
// request and shapes the answer, is catalog/programs/search.ts): match (posting lists of
// the terms, intersected) -> structured filters -> score -> order -> page
// (offset or keyset cursor) -> facets. One programme is one row already: the
// index holds canonical records only (ingest decided which,
// ingest/canonical-records.ts), so a filter sees the programme's own record
// and totals add up under every filter.
//
// Cost: matching is bounded by the rarest term's matches; filters and scoring
// are a few operations per match on in-memory columns; ordering uses the
// catalogue's orders computed once (orders.ts), never a comparator sort of
// the matches; the ordered list of a query (a typed array of pids, and their
// scores) is kept in a bounded LRU keyed by the normalised query, filters and
// sort, with its facet counts, so the pages of one search and repeated
// searches do no work again. The catalogue is read-only; a new catalogue is a new
// SearchIndex with empty caches (invalidation by construction).
import { FACETS, type Facet } from './facets.ts';
import { intersectAll, unionAll, type ProgramColumns, type SearchIndex } from './index.ts';
import { Lru } from '../../lib/lru.ts';
import { RESULT_LIST_BYTES } from '../../lib/cache-budget.ts';
import { byScore, CatalogueOrders, inOrder, type Order } from './orders.ts';
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

interface Ordered {
  /** Every programme the query selects, in order. */
  pids: Int32Array;
  /** Each one's relevance score, same positions (null when the order reads none: without q, or another sort). */
  scores: Float64Array | null;
  /** Where the programme `pid` with `score` stands against a cursor's key (< 0: before it). */
  compare: (pid: number, score: number, key: CursorKey) => number;
  /** Facet counts over the whole list, each facet counted once. */
  facets: Map<Facet, Record<string, number>>;
}

/** Bytes an ordered list holds (for its cache weight): its arrays and about 200 bytes of object. */
const orderedBytes = (o: Ordered): number => o.pids.byteLength + (o.scores?.byteLength ?? 0) + 200;

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
   * filtered, rows scored in full, rows given only the prior, entries
   * ordered, facet counts computed (rows counted).
   * test/catalog/search-cost.test.ts bounds it per query over the bench's long tail.
   */
  readonly work = { orders: 0, candidates: 0, scored: 0, priors: 0, entries: 0, facetRows: 0 };

  /** The catalogue's orders (amount, name, deadline, browse), computed once. */
  readonly orders: CatalogueOrders;

  /** The query-free part of each row's prior (rank.ts#queryFreePriors). */
  private readonly queryFree: Float64Array;

  constructor(index: SearchIndex) {
    this.index = index;
    this.queryFree = queryFreePriors(index);
    this.orders = new CatalogueOrders(index);
  }

  /** Every programme the query selects, in its order (the cached list: do not modify). */
  matches(query: EngineQuery): Int32Array {
    return this.ordered(query).pids;
  }

  private ordered(query: EngineQuery): Ordered {
    let ordered = this.results.get(query.key);
    if (!ordered) {
      ordered = this.order(query);
      this.results.set(query.key, ordered, orderedBytes(ordered));
    }
    return ordered;
  }

  /** Bytes of ordered result lists held (estimate), for /metrics. */
  get resultBytes(): number {
    return this.results.weight;
  }

  search(req: SearchRequest): SearchPage {
    const { text: understood, key } = req.query;
    const ordered = this.ordered(req.query);
    const total = ordered.pids.length;
    let start = req.offset;
    if (req.cursor !== undefined) {
      const after = decodeCursor(req.cursor, key);
      if (!after) throw new CursorError('cursor: not a cursor of this search (filters, q and sort must be those of the call that returned it)');
      start = firstAfter(ordered, after);
    }
    const end = Math.min(total, start + req.limit);
    const prepared = understood && req.explain ? this.prepare(understood, req.query.place ?? null, req.query.need ?? needOfQuery(understood)) : null;
    const hits: SearchHit[] = [];
    for (let i = start; i < end; i++) {
      const pid = ordered.pids[i];
      hits.push({ pid, ...(prepared ? { parts: scoreRow(this.index, prepared, this.index.rows[pid]) } : {}) });
    }
    const nextCursor = end > start && end < total ? encodeCursor(key, keyOf(this.index, ordered.pids[end - 1], ordered.scores?.[end - 1] ?? 0)) : null;
    return {
      total,
      hits,
      nextCursor,
      ...(req.facets && req.facets.length > 0 ? { facets: this.facets(ordered, req.facets) } : {}),
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
      // A place named in q: another prefecture's programme is no answer (rank.ts ranks it last), so it does not count
      // towards the matches that stop relaxing; the place's programmes that lack one word come in before it.
      const named = q.prefectures;
      const inPlace = (r: ProgramColumns): boolean => named.length === 0 || r.prefecture === null || named.includes(r.prefecture);
      candidates = relaxed(lists, candidates, (pid) => rows[pid] !== undefined && accept(rows[pid]) && inPlace(rows[pid]));
    } else {
      // Every programme, read in the asked order: nothing to sort below.
      candidates = this.orderOf(sort, query.today).pids;
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
      const scoredAt: number[] = [];
      for (let i = 0; i < n && scored < SCORE_LIMIT; i++) {
        if (scores[i] >= threshold) {
          scores[i] = scoreRow(index, prepared, rows[accepted[i]]).total;
          scoredAt.push(i);
          scored++;
        }
      }
      this.work.scored += scored;
      if (sort === 'relevance') sameNameLast(rows, accepted, scores, scoredAt);
    }
    this.work.entries += n;
    const compare = comparatorFor(index, sort, query.today);
    const facets = new Map<Facet, Record<string, number>>();
    // Without q the candidates were read in the asked order already.
    if (!prepared) return { pids: Int32Array.from(accepted), scores: null, compare, facets };
    if (sort === 'relevance') return { ...byScore(this.orders.browse, accepted, scores), compare, facets };
    // Matches in another order: only relevance reads the scores.
    return { pids: inOrder(this.orderOf(sort, query.today), accepted), scores: null, compare, facets };
  }

  /** The catalogue's order for `sort` (relevance without q is the browse order). */
  private orderOf(sort: SortOrder, today: string): Order {
    switch (sort) {
      case 'relevance':
        return this.orders.browse;
      case 'amount':
        return this.orders.amount;
      case 'name':
        return this.orders.name;
      case 'deadline':
        return this.orders.deadline(today);
    }
  }

  /** Facet counts of an ordered list, computed once per facet and kept with the list. */
  private facets(ordered: Ordered, facets: readonly Facet[]): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    const rows = this.index.rows;
    for (const facet of facets) {
      let counted = ordered.facets.get(facet);
      if (!counted) {
        const counts = new Map<string, number>();
        const values = FACETS[facet];
        for (const pid of ordered.pids) {
          for (const v of values(rows[pid])) counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        this.work.facetRows += ordered.pids.length;
        counted = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
        ordered.facets.set(facet, counted);
      }
      out[facet] = counted;
    }
    return out;
  }
}

/** How far a second record of one name in one place moves down: below every other scored row. */
const SAME_NAME_DROP = 100;

/**
 * Two records with one name in one place (one municipality, or a prefecture's record without one), or with one
 * name and one page, are one programme the catalogue has not merged (ingest/canonical-records.ts merges what it
 * can prove): the better-scored keeps its place, the other follows every other match, so a page does not show
 * it twice.
 */
function sameNameLast(rows: ProgramColumns[], pids: number[], scores: Float64Array, scoredAt: number[]): void {
  const seen = new Map<string, ProgramColumns[]>();
  const samePlace = (a: ProgramColumns, b: ProgramColumns): boolean =>
    a.prefecture === b.prefecture && (a.municipality === null || b.municipality === null || a.municipality === b.municipality);
  for (const i of [...scoredAt].sort((a, b) => scores[b] - scores[a] || a - b)) {
    const r = rows[pids[i]];
    const kept = seen.get(r.nameKey);
    if (kept === undefined) seen.set(r.nameKey, [r]);
    else if (kept.some((k) => samePlace(k, r) || (k.page !== null && k.page === r.page))) scores[i] -= SAME_NAME_DROP;
    else kept.push(r);
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

/** The key a cursor carries for the programme `pid` with `score`: every field any order reads. */
function keyOf(index: SearchIndex, pid: number, score: number): CursorKey {
  const r = index.rows[pid];
  return { s: score, a: r.amountMax, d: r.windowEnd, b: r.browseRank, n: r.nameRank };
}

/**
 * Where a programme stands against a cursor's key in each order (the same
 * orders as orders.ts builds): every order ends with the browse rank (tier,
 * primary_name, pid: the contract's order without q), so it is total and a
 * keyset cursor resumes exactly.
 */
function comparatorFor(index: SearchIndex, sort: SortOrder, today = ''): Ordered['compare'] {
  const rows = index.rows;
  const byBrowse = (pid: number, k: CursorKey): number => rows[pid].browseRank - k.b;
  switch (sort) {
    case 'relevance':
      return (pid, score, k) => k.s - score || byBrowse(pid, k);
    case 'amount':
      // Largest upper amount first; unknown amounts last.
      return (pid, _score, k) => (k.a ?? -1) - (rows[pid].amountMax ?? -1) || byBrowse(pid, k);
    case 'deadline': {
      // Open deadlines soonest first, then no deadline, then deadlines already past (latest first).
      const bucket = (d: string | null): number => (d === null ? 1 : d >= today ? 0 : 2);
      return (pid, _score, k) => {
        const x = rows[pid].windowEnd;
        const y = k.d;
        const bx = bucket(x);
        const by = bucket(y);
        if (bx !== by) return bx - by;
        if (x !== y && x !== null && y !== null) return bx === 0 ? (x < y ? -1 : 1) : x < y ? 1 : -1;
        return byBrowse(pid, k);
      };
    }
    case 'name':
      return (pid, _score, k) => rows[pid].nameRank - k.n;
  }
}

/** Index of the first programme ordered after `key` (binary search; the list is in `compare`'s order). */
function firstAfter(ordered: Ordered, key: CursorKey): number {
  let lo = 0;
  let hi = ordered.pids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ordered.compare(ordered.pids[mid], ordered.scores?.[mid] ?? 0, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
