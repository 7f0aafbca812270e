// A serving process builds, before its first request, what first requests
// would otherwise build over the whole catalogue while holding the event loop
// (Catalog#warm, issue 25 item 5): the search columns and orders, the id
// map, the attribution scan, meta and the exclusion rules. Checked as work
// counters: the first requests of each kind read no whole table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, testCatalog } from '../helper.ts';
import { Catalog } from '../../src/catalog/catalog.ts';

test('after ready, the first detail, search page, browse by every order and /v1/meta read no whole table and build no order', async (t) => {
  // A catalogue of our own, not built by any earlier app of this process.
  const catalog = new Catalog((await testCatalog()).db.path);
  t.after(() => catalog.close());
  const built = () => catalog.built.programs;
  assert.equal(built(), null, 'nothing built before the app is ready');
  const app = await build(t, {}, {}, { catalog });
  const programs = built();
  assert.ok(programs, 'built when the app became ready');
  const reads = programs.work.tableReads;
  const orders = catalog.search.orders.work.ordersBuilt;
  const first = JSON.parse((await app.inject('/v1/programs/search?limit=3')).body).results[0].unified_id;
  assert.equal((await app.inject(`/v1/programs/${first}`)).statusCode, 200);
  assert.equal((await app.inject('/v1/programs/UNKNOWN-ID')).statusCode, 404);
  for (const sort of ['amount', 'name']) assert.equal((await app.inject(`/v1/programs/search?sort=${sort}`)).statusCode, 200);
  assert.equal((await app.inject('/v1/meta')).statusCode, 200);
  assert.equal((await app.inject('/v1/exclusions/rules')).statusCode, 200);
  assert.equal(programs.work.tableReads, reads, 'no request read the whole programmes table');
  assert.equal(catalog.search.orders.work.ordersBuilt, orders, 'no request built an order of the whole catalogue');
});
