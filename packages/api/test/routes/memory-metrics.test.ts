// /metrics reports what a serving process holds by component
// (jpsp_memory_bytes), and every cache stays within its bound in bytes
// (lib/cache-budget.ts), however many answers pass through it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { AnswerCache } from '../../src/http/answers.ts';
import { DETAIL_CACHE_BYTES, PAGE_CACHE_BYTES, RECORD_JSON_BYTES, RESULT_LIST_BYTES } from '../../src/lib/cache-budget.ts';

const ADMIN = 'admin-secret-1234567890';

test('/metrics: memory by component, each cache within its bound', async (t) => {
  const app = await build(t, { ADMIN_API_KEY: ADMIN });
  await app.inject(`/v1/programs/search?q=${encodeURIComponent('補助金')}&limit=5`);
  const first = JSON.parse((await app.inject('/v1/programs/search?limit=1')).body).results[0].unified_id;
  await app.inject(`/v1/programs/${first}`);
  const text = (await app.inject({ url: '/metrics', headers: { 'x-admin-key': ADMIN } })).body;
  const bytes = Object.fromEntries(
    [...text.matchAll(/^jpsp_memory_bytes\{component="([a-z_]+)"\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  for (const component of [
    'resident',
    'heap_used',
    'heap_committed',
    'external',
    'search_columns',
    'postings',
    'result_lists',
    'record_json',
    'answer_pages',
    'answer_details',
    'catalog_page_cache_bound',
  ]) {
    assert.ok(component in bytes, `${component} reported: ${JSON.stringify(bytes)}`);
  }
  assert.ok(bytes.resident > bytes.heap_used && bytes.heap_used > 0);
  assert.ok(bytes.search_columns > 1_000_000, 'the columns of every programme');
  assert.ok(bytes.answer_pages > 0 && bytes.answer_pages <= PAGE_CACHE_BYTES);
  assert.ok(bytes.answer_details > 0 && bytes.answer_details <= DETAIL_CACHE_BYTES);
  assert.ok(bytes.record_json > 0 && bytes.record_json <= RECORD_JSON_BYTES);
  assert.ok(bytes.result_lists > 0 && bytes.result_lists <= RESULT_LIST_BYTES);
});

test('the answer caches hold at most their bound in bytes, the newest answers kept', () => {
  const cache = new AnswerCache();
  const body = JSON.stringify({ text: 'x'.repeat(100_000) });
  for (let i = 0; i < 200; i++) cache.page(`page ${i}`, () => body);
  assert.ok(cache.bytes.pages <= PAGE_CACHE_BYTES, `${cache.bytes.pages} bytes held`);
  assert.ok(cache.bytes.pages > PAGE_CACHE_BYTES / 2, 'filled, not emptied');
  const built = cache.stats.pagesBuilt;
  cache.page('page 199', () => body);
  assert.equal(cache.stats.pagesBuilt, built, 'the newest is still held');
  cache.page('page 0', () => body);
  assert.equal(cache.stats.pagesBuilt, built + 1, 'the oldest was let go');
});
