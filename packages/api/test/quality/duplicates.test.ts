// One programme, one row: no page of results shows two rows of one
// programme, over common terms, filters and deep pages (the gold and judged
// sets are checked by their own evaluations). "One programme" is the
// evaluation's own notion (programme-identity.ts), not the search's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body, testCatalog } from '../helper.ts';
import { programmeIdentity } from './programme-identity.ts';

const COMMON = [
  '補助金',
  '助成金',
  'IT導入',
  'IT導入補助金',
  '省エネ',
  '新規就農',
  '事業承継',
  '創業',
  'ものづくり補助金',
  '持続化補助金',
  '経営体育成強化資金',
  '青年等就農資金',
  '環境保全型農業直接支払交付金',
  'キャリアアップ助成金',
];

test('no page shows two rows of one programme (common terms, filters, deep pages)', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000000' });
  const same = programmeIdentity((await testCatalog()).db);
  const searches = [
    ...COMMON.flatMap((q) => [0, 100].map((offset) => `q=${encodeURIComponent(q)}&limit=100&offset=${offset}`)),
    'limit=100',
    'limit=100&offset=300',
    'prefecture=%E5%8C%97%E6%B5%B7%E9%81%93&limit=100',
    'include_excluded=true&limit=100&offset=9000',
    'sort=amount&limit=100',
    'q=%E8%A3%9C%E5%8A%A9%E9%87%91&sort=name&limit=100&include_excluded=true',
  ];
  let rows = 0;
  for (const qs of searches) {
    const res = await app.inject(`/v1/programs/search?${qs}`);
    assert.equal(res.statusCode, 200, qs);
    const ids = body<{ results: { unified_id: string }[] }>(res).results.map((r) => same(r.unified_id));
    rows += ids.length;
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(twice, [], `${decodeURIComponent(qs)}: a programme shown twice`);
  }
  t.diagnostic(`${searches.length} pages, ${rows} rows, duplicate rate 0`);
});
