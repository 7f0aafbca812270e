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
  // The index holds programmes (canonical records); the FTS table every record (merged ones are filtered out of its postings).
  const rows = db
    .prepare(
      `SELECT f.rowid AS pid, f.primary_name AS name, f.aliases, f.authority, f.other, f.description, f.reading
         FROM programs_fts f JOIN programs p ON p.pid = f.rowid WHERE p.canonical_id IS NULL`,
    )
    .all() as Record<string, string | number>[];
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
  // A programme of several records is found by its other records' names (ingest/canonical-records.ts).
  assert.ok(
    rows.some((r) => String(r.aliases).includes('it導入補助金') && String(r.name).includes('でじたる化')),
    'デジタル化・AI導入補助金 holds the name IT導入補助金 in its aliases',
  );
});
