// Issue 24, L9: the SQLite state store's prepared statements are a bounded
// cache (an LRU): statement shapes vary with the length of an IN list, and
// an unbounded map grew by 215 MB over 500 shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { tempDir } from '../helper.ts';
import { SqliteDriver, STATEMENT_CACHE_SIZE } from '../../src/state/sqlite.ts';

test("the state store's statement cache is bounded whatever the number of statement shapes (L9)", async (t) => {
  const driver = new SqliteDriver(path.join(tempDir(t), 'state.sqlite'));
  t.after(() => driver.close());
  await driver.migrate();
  const hot = 'SELECT count(*) AS n FROM api_keys';
  for (let n = 1; n <= 3 * STATEMENT_CACHE_SIZE; n++) {
    const ids = Array.from({ length: n }, (_, i) => i);
    // The shape of an IN list grows with its length: one statement text per length.
    await driver.all(`SELECT count(*) AS n FROM api_keys WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    if (n % 10 === 0) await driver.all(hot);
  }
  assert.equal(driver.cachedStatements, STATEMENT_CACHE_SIZE);
  assert.equal(Number((await driver.all<{ n: number }>(hot))[0].n), 0);
});
