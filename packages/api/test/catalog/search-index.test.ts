// The in-memory search columns are rebuilt at start from catalogue rows; the
// catalogue's FTS columns were written at ingest from raw records. Both go
// through search-text.ts#searchColumns; this checks, over the whole bundled
// catalogue, that they hold the same text, so a query matches the same rows
// whichever side answers it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { testCatalog } from '../helper.ts';
import { FIELDS } from '../../src/catalog/search/index.ts';

test("every programme's in-memory search columns equal its FTS columns", async () => {
  const catalog = await testCatalog();
  const db = new DatabaseSync(catalog.db.path, { readOnly: true });
  const rows = db.prepare('SELECT rowid AS pid, primary_name AS name, aliases, authority, other, description, reading FROM programs_fts').all() as Record<
    string,
    string | number
  >[];
  db.close();
  const index = catalog.search.index;
  assert.equal(rows.length, index.size);
  for (const fts of rows) {
    const row = index.rows[fts.pid as number];
    assert.ok(row, `pid ${fts.pid} is in the index`);
    for (const field of FIELDS) assert.equal(row[field], fts[field], `pid ${fts.pid} ${field}`);
  }
  assert.ok(
    rows.some((r) => r.other !== '' && r.authority !== ''),
    'the columns compared are not all empty',
  );
});
