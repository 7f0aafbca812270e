// The municipalities @jp-support/vocab reads places with (resolvePlace, the
// search's applicable_in and the match profile) are the dataset's: the same
// names in the same prefectures as the catalogue's municipalities table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MUNICIPALITIES } from '@jp-support/vocab';
import { testCatalog } from '../helper.ts';

test('vocab MUNICIPALITIES equal the catalogue’s municipalities table', async () => {
  const { db } = await testCatalog();
  const rows = db.all<{ name: string; prefecture: string }>('SELECT name, prefecture FROM municipalities ORDER BY municipality_code');
  const fromCatalogue = rows.map((r) => `${r.prefecture}/${r.name}`).sort();
  const fromVocab = Object.entries(MUNICIPALITIES)
    .flatMap(([prefecture, names]) => names.map((n) => `${prefecture}/${n}`))
    .sort();
  assert.deepEqual(fromVocab, fromCatalogue);
});
