// What one search may cost, as work counters (never time): the bench's long
// tail (2,500 distinct searches cut from programme names, with filters, the
// list `npm run bench` sends) and its 50-search mix run through the engine on
// the bundled catalogue, each on empty caches. Per query: at most SCORE_LIMIT
// rows get the full score however many match, at most MAX_QUERY_TERMS terms
// (and their spellings) are looked up, and a repeated query does no work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { testCatalog } from '../helper.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { SCORE_LIMIT } from '../../src/catalog/search/engine.ts';
import { MAX_QUERY_TERMS, understandQuery } from '../../src/catalog/search/understand.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';
import { longTail, searchMix } from '../../../../bench/lib/scenarios.ts';

test('the long tail and the mix: full scoring capped per query, term lookups bounded by the terms, repeats free', async (t) => {
  const shared = await testCatalog();
  const db = new DatabaseSync(shared.db.path, { readOnly: true });
  const queries = [...searchMix(), ...longTail(db, 2500)];
  db.close();
  // A catalogue of our own: its caches start empty and are ours to count.
  const catalog = new Catalog(shared.db.path);
  t.after(() => catalog.close());
  const search = catalog.search;
  const size = search.index.size;
  let broad = 0;
  let maxScored = 0;
  let maxLists = 0;
  for (const q of queries) {
    const request = { query: readProgramQuery(q, '2026-11-23'), limit: Number(q.limit ?? 20), offset: Number(q.offset ?? 0) };
    const before = { ...search.work, ...search.index.work };
    search.search(request);
    const scored = search.work.scored - before.scored;
    const lists = search.index.work.postingLists - before.postingLists;
    const understood = q.q === undefined ? null : understandQuery(String(q.q));
    const alternatives = [...(understood?.required ?? []), ...(understood?.optional ?? [])].reduce((n, g) => n + g.alternatives.length, 0);
    const what = JSON.stringify(q);
    assert.ok(scored <= SCORE_LIMIT, `${what}: ${scored} rows scored in full`);
    assert.ok(lists <= alternatives, `${what}: ${lists} posting lists read for ${alternatives} spellings`);
    assert.ok(search.work.candidates - before.candidates <= size, `${what}: candidates within the catalogue`);
    if (search.work.priors - before.priors > SCORE_LIMIT) broad++;
    maxScored = Math.max(maxScored, scored);
    maxLists = Math.max(maxLists, lists);
    // The same query again: served from the ordered list, nothing computed.
    const again = { ...search.work };
    search.search(request);
    assert.deepEqual(search.work, again, `${what}: a repeat does no work`);
  }
  assert.ok(broad > 10, `the lists hold broad queries (more than SCORE_LIMIT matches): ${broad}`);
  assert.equal(maxScored, SCORE_LIMIT, 'broad queries reach the cap and stop there');
  assert.ok(maxLists <= MAX_QUERY_TERMS * 8);
});
