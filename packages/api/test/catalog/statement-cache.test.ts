// Issue 11, finding 11: the catalogue's prepared statements are cached by SQL
// text, and SQL built from a request (filters, terms) must not grow that cache
// without bound. The cache is an LRU of STATEMENT_CACHE_SIZE, and a record-set
// search binds its short terms as one JSON array, so one SQL text serves any
// number of terms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testCatalog } from '../helper.ts';
import { searchRecords } from '../../src/catalog/queries/record-sets.ts';
import laws from '../../src/catalog/record-sets/laws.ts';
import { CatalogDatabase, STATEMENT_CACHE_SIZE } from '../../src/catalog/db.ts';

test('the statement cache is bounded, least recently used out first', async (t) => {
  const db = new CatalogDatabase((await testCatalog()).db.path);
  t.after(() => db.close());
  const hot = 'SELECT count(*) AS n FROM programs';
  const first = db.statement(hot);
  for (let i = 0; i < STATEMENT_CACHE_SIZE * 3; i++) {
    assert.equal(db.get<{ v: number }>(`SELECT ${i} AS v`)?.v, i);
    // Used all along, so never the least recent.
    if (i % 10 === 0) assert.equal(db.statement(hot), first);
  }
  assert.equal(db.cachedStatements, STATEMENT_CACHE_SIZE);
  assert.equal(db.statement(hot), first, 'a statement in use stays cached');
  assert.notEqual(db.statement('SELECT 0 AS v'), undefined);
});

test('record-set searches with 1 to 30 short terms share one SQL text per filter shape, and still require every term', async (t) => {
  const db = new CatalogDatabase((await testCatalog()).db.path);
  t.after(() => db.close());
  const search = (q: string) => searchRecords(db, laws, { q, filters: {}, limit: 5, offset: 0 });
  // Two-character terms: the substring side of the search (3+ characters go to the one MATCH parameter).
  const words = '保険労働基準安全衛生雇用賃金休暇所得税制度農業漁業林業工業商業観光交通運輸建設医療福祉教育文化環境'.match(/../g)!;
  assert.ok(search(words[1]).total > 0);
  const statements = db.cachedStatements;
  for (let n = 2; n <= 30; n++) search(words.slice(0, n).join(' '));
  assert.equal(db.cachedStatements, statements, 'no new statement per number of terms');
  // Every short term must still match: two terms narrow what one finds.
  const one = search('労働').total;
  const two = search('労働 保険').total;
  assert.ok(one > two && two > 0, `労働 ${one}, 労働 保険 ${two}`);
});
