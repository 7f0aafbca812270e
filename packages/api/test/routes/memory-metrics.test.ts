// /metrics reports what a serving process holds by component
// (jpsp_memory_bytes), and every cache stays within its bound in bytes
// (lib/cache-budget.ts), however many answers pass through it; each process's
// pages by kind and V8 heap space (lib/process-memory.ts), the cluster
// primary's own as jpsp_primary_memory_bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { build } from '../helper.ts';
import { privateDataDir, startServer } from '../faults/servers.ts';
import { AnswerCache } from '../../src/http/answers.ts';
import { DETAIL_CACHE_BYTES, PAGE_CACHE_BYTES, RECORD_JSON_BYTES, RESULT_LIST_BYTES } from '../../src/lib/cache-budget.ts';

const ADMIN = 'admin-secret-1234567890';
const LINUX = existsSync('/proc/self/smaps_rollup');

const series = (text: string, metric: string): Record<string, number> =>
  Object.fromEntries(
    [...text.matchAll(new RegExp(`^${metric}\\{component="([a-z0-9_]+)"\\} (\\d+(?:\\.\\d+)?(?:e\\+\\d+)?)$`, 'gm'))].map((m) => [m[1], Number(m[2])]),
  );

/** The process figures of one process (or a sum of them): pages by kind and V8's spaces add up. */
function assertProcessFigures(bytes: Record<string, number>, label: string): void {
  for (const component of ['resident', 'heap_used', 'heap_committed', 'external', 'v8_new_space', 'v8_old_space', 'v8_code_space', 'v8_large_object_space'])
    assert.ok(component in bytes, `${label}: ${component} reported: ${JSON.stringify(bytes)}`);
  const v8 = Object.entries(bytes)
    .filter(([k]) => k.startsWith('v8_'))
    .reduce((sum, [, v]) => sum + v, 0);
  assert.ok(bytes.v8_old_space > 0 && v8 <= bytes.heap_committed * 1.01 + 1_000_000, `${label}: V8's resident spaces within its committed heap`);
  if (!LINUX) {
    assert.ok(!('resident_anonymous' in bytes), `${label}: no page figures without /proc`);
    return;
  }
  assert.ok(bytes.resident_anonymous > v8 * 0.9, `${label}: anonymous pages hold V8's heap`);
  assert.ok(bytes.resident_file > 10_000_000, `${label}: the node binary's file pages`);
  // Read a moment apart from resident (memoryUsage): within a few MB of it.
  const pages = bytes.resident_anonymous + bytes.resident_file;
  assert.ok(Math.abs(pages - bytes.resident) < 0.05 * bytes.resident + 4_000_000, `${label}: anonymous + file ${pages} against resident ${bytes.resident}`);
  assert.ok(bytes.proportional > 0 && bytes.proportional <= bytes.resident * 1.01, `${label}: proportional within resident`);
  assert.ok(Math.abs(bytes.outside_v8_anonymous - (bytes.resident_anonymous - v8)) <= 1, `${label}: outside V8 is anonymous less V8's spaces`);
}

test('/metrics: memory by component, each cache within its bound', async (t) => {
  const app = await build(t, { ADMIN_API_KEY: ADMIN });
  await app.inject(`/v1/programs/search?q=${encodeURIComponent('補助金')}&limit=5`);
  const first = JSON.parse((await app.inject('/v1/programs/search?limit=1')).body).results[0].unified_id;
  await app.inject(`/v1/programs/${first}`);
  const text = (await app.inject({ url: '/metrics', headers: { 'x-admin-key': ADMIN } })).body;
  const bytes = series(text, 'jpsp_memory_bytes');
  assertProcessFigures(bytes, 'one process');
  assert.doesNotMatch(text, /jpsp_primary_memory_bytes/, 'no primary without workers');
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

test('/metrics of a cluster: the workers summed, then the primary its own', { timeout: 120_000 }, async (t) => {
  const server = await startServer(t, { DATA_DIR: await privateDataDir(t), WEB_CONCURRENCY: '2', ADMIN_API_KEY: ADMIN });
  // Both workers answer (the primary sums every worker it has forked, started or not).
  for (let i = 0; i < 20; i++) await (await fetch(`${server.url}/v1/programs/search?q=${encodeURIComponent('補助金')}&limit=5`)).text();
  const text = await (await fetch(`${server.url}/metrics`, { headers: { 'x-admin-key': ADMIN } })).text();
  const workers = series(text, 'jpsp_memory_bytes');
  const primary = series(text, 'jpsp_primary_memory_bytes');
  assertProcessFigures(workers, 'the workers summed');
  assertProcessFigures(primary, 'the primary');
  assert.ok(!('search_columns' in primary), 'the primary holds no catalogue');
  assert.ok(workers.search_columns > 2_000_000, 'both workers hold the columns');
  assert.ok(primary.resident < workers.resident / 2, `the primary ${primary.resident} is the small part of ${workers.resident + primary.resident}`);
  assert.equal(text.match(/^# TYPE jpsp_primary_memory_bytes gauge$/gm)?.length, 1, 'one family, once');
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
