// The search's orders (catalog/search/orders.ts): computed once per
// catalogue, so no request sorts the whole catalogue with a comparator; a
// query's matches are put in an order by native sorts of positions and
// scores. Checked against comparator sorts of the same rows (the orders the
// contract defines), as work counters (orders built, rows counted for
// facets), and by paging with cursors, which must walk the same list as
// offsets. Never by time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testCatalog } from '../helper.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { byScore, inOrder } from '../../src/catalog/search/orders.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';
import type { ProgramColumns } from '../../src/catalog/search/index.ts';

const TODAY = '2026-11-23';

/** The contract's orders as comparators over rows: each ends with the browse rank. */
function reference(sort: string, today: string): (a: ProgramColumns, b: ProgramColumns) => number {
  const browse = (a: ProgramColumns, b: ProgramColumns) => a.browseRank - b.browseRank;
  switch (sort) {
    case 'amount':
      return (a, b) => (b.amountMax ?? -1) - (a.amountMax ?? -1) || browse(a, b);
    case 'name':
      return (a, b) => a.nameRank - b.nameRank;
    case 'deadline': {
      const bucket = (d: string | null) => (d === null ? 1 : d >= today ? 0 : 2);
      return (a, b) => {
        const [x, y] = [a.windowEnd, b.windowEnd];
        if (bucket(x) !== bucket(y)) return bucket(x) - bucket(y);
        if (x !== y && x !== null && y !== null) return bucket(x) === 0 ? (x < y ? -1 : 1) : x < y ? 1 : -1;
        return browse(a, b);
      };
    }
    default:
      return browse;
  }
}

async function ownCatalog(t: { after(fn: () => void): void }): Promise<Catalog> {
  // A catalogue of our own: its caches and counters start empty.
  const catalog = new Catalog((await testCatalog()).db.path);
  t.after(() => catalog.close());
  return catalog;
}

test('every order of the whole catalogue and of a query matches the comparator sort of the same rows', async (t) => {
  const search = (await ownCatalog(t)).search;
  const rows = search.index.rows;
  for (const sort of ['relevance', 'amount', 'deadline', 'name']) {
    for (const params of [{}, { tier: ['S', 'A', 'B'] }, { q: '補助金' }, { q: '農業', prefecture: '北海道' }]) {
      const query = readProgramQuery({ ...params, sort }, TODAY);
      const { hits, total } = search.search({ query, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      assert.equal(hits.length, total);
      assert.ok(total > 5, `${sort} ${JSON.stringify(params)}: ${total} rows`);
      const got = hits.map((h) => h.pid);
      if (sort === 'relevance' && 'q' in params) continue; // by score: the unit test below
      const want = [...got].sort((a, b) => reference(sort, TODAY)(rows[a], rows[b]));
      assert.deepEqual(got, want, `${sort} ${JSON.stringify(params)}`);
    }
  }
});

test('byScore: highest score first, ties in browse order; inOrder: the order of the positions', async (t) => {
  const search = (await ownCatalog(t)).search;
  const browse = search.orders.browse;
  const rows = search.index.rows;
  const pids = [...search.index.pids].filter((_, i) => i % 3 === 0);
  // Few distinct scores, so ties are many.
  const scores = Float64Array.from(pids, (pid) => (pid * 7919) % 13);
  const placed = byScore(browse, pids, scores);
  const scoreOf = new Map(pids.map((pid, i) => [pid, scores[i]]));
  const want = [...pids].sort((a, b) => (scoreOf.get(b) as number) - (scoreOf.get(a) as number) || rows[a].browseRank - rows[b].browseRank);
  assert.deepEqual([...placed.pids], want);
  assert.deepEqual(
    [...placed.scores],
    want.map((pid) => scoreOf.get(pid)),
  );
  const amount = search.orders.amount;
  assert.deepEqual(
    [...inOrder(amount, pids)],
    [...pids].sort((a, b) => amount.position[a] - amount.position[b]),
  );
});

test('orders are built once per catalogue (deadlines once a day), facets once per result list', async (t) => {
  const search = (await ownCatalog(t)).search;
  const built = search.orders.work.ordersBuilt;
  const size = search.index.size;
  for (const sort of ['amount', 'deadline', 'name', 'relevance']) {
    for (const today of [TODAY, TODAY]) {
      const before = { ...search.work };
      const { total } = search.search({ query: readProgramQuery({ sort }, today), limit: 20, offset: 0, facets: ['tier', 'prefecture'] });
      const work = { ...search.work };
      if (before.orders !== work.orders) {
        assert.equal(work.candidates - before.candidates, size, `${sort}: every programme read once`);
        assert.equal(work.facetRows - before.facetRows, 2 * total, `${sort}: each facet counted once over the list`);
      } else assert.deepEqual(work, before, `${sort}: the same search again does no work`);
    }
    // The next page of the same search: its list and its facet counts are kept.
    const before = { ...search.work };
    search.search({ query: readProgramQuery({ sort }, TODAY), limit: 20, offset: 20, facets: ['tier', 'prefecture'] });
    assert.deepEqual(search.work, before, `${sort}: the second page does no work`);
  }
  // One deadline order for the day asked; another day, one more.
  assert.equal(search.orders.work.ordersBuilt, built + 1);
  search.search({ query: readProgramQuery({ sort: 'deadline' }, '2027-01-01'), limit: 20, offset: 0 });
  assert.equal(search.orders.work.ordersBuilt, built + 2);
});

test('cursor pages walk the same list as offsets, in every order', async (t) => {
  const search = (await ownCatalog(t)).search;
  for (const sort of ['relevance', 'amount', 'deadline', 'name']) {
    for (const params of [{ q: '補助金' }, { tier: ['S', 'A', 'B', 'C'] }]) {
      const query = readProgramQuery({ ...params, sort }, TODAY);
      const all = search.search({ query, limit: Number.MAX_SAFE_INTEGER, offset: 0 }).hits.map((h) => h.pid);
      const walked: number[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = search.search({ query, limit: 97, offset: 0, ...(cursor ? { cursor } : {}) });
        walked.push(...page.hits.map((h) => h.pid));
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      assert.deepEqual(walked, all, `${sort} ${JSON.stringify(params)}`);
    }
  }
});
