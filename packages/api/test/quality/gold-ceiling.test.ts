// What makes a gold id out of reach (gold-ceiling.ts): the query's own
// filters in this catalogue, or no trace of the query in the record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isContractOrdered, textQueryReach, type GoldRecord } from './gold-ceiling.ts';
import type { EvalQuery } from './eval.ts';

const query = (args: Record<string, unknown>, expected: string[]): EvalQuery => ({
  id: 'q',
  category: 'c',
  tool_name: 'search_programs',
  tool_args: args,
  expected_ids: expected,
  forbidden_ids: [],
  min_precision_at_10: 0,
  expected_ids_present_in_shared_data: expected,
});
const record = (over: Partial<GoldRecord>): GoldRecord => ({ tier: 'A', prefecture: null, authority_level: null, primary_name: '', ...over });

test('a gold id is within reach when it passes the filters and holds the query or was returned', () => {
  const records: Record<string, GoldRecord> = {
    inName: record({ primary_name: 'ＩＴ導入補助金' }), // folded as the search folds: width
    inAlias: record({ primary_name: '別名', aliases: ['it導入補助金'] }),
    returned: record({ primary_name: 'デジタル化支援' }), // found through a synonym
    tierX: record({ primary_name: 'IT導入補助金', tier: 'X' }),
    otherPlace: record({ primary_name: 'IT導入補助金', prefecture: '大阪府' }),
    noText: record({ primary_name: '林業研修支援事業' }),
  };
  const reach = textQueryReach(
    query({ q: 'IT導入補助金', tier: ['S', 'A', 'B'], prefecture: null }, Object.keys(records)),
    new Set(['returned']),
    (id) => records[id],
  );
  assert.deepEqual(reach.reachable, ['inName', 'inAlias', 'returned', 'otherPlace']);
  assert.deepEqual(reach.unreachable, { tierX: 'filtered_out', noText: 'no_query_text' });
  assert.equal(reach.ceiling, 4 / 6);
  const tokyo = textQueryReach(query({ q: 'IT導入補助金', prefecture: '東京都' }, ['otherPlace']), new Set(), (id) => records[id]);
  assert.deepEqual(tokyo.unreachable, { otherPlace: 'filtered_out' });
  assert.equal(tokyo.ceiling, 0);
});

test('more than ten reachable ids cap at 1; queries without q keep the contract order', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `id${i}`);
  const reach = textQueryReach(query({ q: '創業' }, ids), new Set(ids), () => record({ primary_name: '創業支援' }));
  assert.equal(reach.ceiling, 1);
  assert.equal(isContractOrdered(query({ prefecture: '東京都' }, [])), true);
  assert.equal(isContractOrdered(query({ q: '  ' }, [])), true);
  assert.equal(isContractOrdered(query({ q: '創業' }, [])), false);
});
