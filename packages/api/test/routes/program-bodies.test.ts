// The read path answers from JSON serialised once per catalogue
// (catalog/programs/records.ts) and kept whole (http/answers.ts). These tests hold it to the bytes the shaped
// objects give through JSON.stringify (what the routes answered before), and
// check that repeated answers do no work again and that the caches are per
// catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { build, testCatalog } from '../helper.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { fullShape, getProgramRow, getProgramRowsByPid, hitMembers, shapeRow, withMembers, type FieldsShape } from '../../src/catalog/programs/records.ts';
import { readProgramQuery } from '../../src/catalog/programs/query.ts';
import { readNeed } from '../../src/catalog/programs/search.ts';
import { answersOf } from '../../src/http/answers.ts';
import { compressionStats } from '../../src/http/compression.ts';
import { programAttribution } from '../../src/catalog/attribution.ts';
import { jstDate } from '../../src/lib/time.ts';
import type { Facet } from '../../src/catalog/search/facets.ts';

const SHAPES: FieldsShape[] = ['minimal', 'default', 'full'];

test('withMembers appends members as JSON.stringify would', () => {
  assert.equal(withMembers('{"a":1}', { b: [1, 'x'], c: undefined }), JSON.stringify({ a: 1, b: [1, 'x'] }));
  assert.equal(withMembers('{}', { b: null }), JSON.stringify({ b: null }));
  assert.equal(withMembers('{"a":1}', {}), '{"a":1}');
});

test('detail and batch: the bytes of the shaped rows, whatever the cache holds', async (t) => {
  const app = await build(t);
  const catalog = await testCatalog();
  const ids = catalog.db
    .all<{ unified_id: string }>('SELECT unified_id FROM programs WHERE enriched IS NOT NULL AND source_mentions IS NOT NULL ORDER BY pid LIMIT 5')
    .map((r) => r.unified_id);
  assert.equal(ids.length, 5);
  for (const id of ids) {
    const row = getProgramRow(catalog.db, id)!;
    for (const fields of SHAPES) {
      for (let round = 0; round < 2; round++) {
        const res = await app.inject(`/v1/programs/${encodeURIComponent(id)}?fields=${fields}`);
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(res.body, JSON.stringify(shapeRow(row, fields === 'minimal' ? 'minimal' : 'detail')), `${id} ${fields} round ${round}`);
      }
    }
  }
  const asked = [ids[2], 'no-such-id', ids[0], ids[2], ids[4]];
  const res = await app.inject({ method: 'POST', url: '/v1/programs/batch', payload: { unified_ids: asked } });
  assert.equal(res.statusCode, 200);
  const expected = {
    results: [ids[2], ids[0], ids[4]].map((id) => fullShape(getProgramRow(catalog.db, id)!, true)),
    not_found: ['no-such-id'],
    attribution: programAttribution([ids[2], ids[0], ids[4]].map((id) => getProgramRow(catalog.db, id))),
  };
  assert.equal(res.body, JSON.stringify(expected));
});

test('search pages: the bytes of the response object, for shapes, explain, facets, duplicates and cursors', async (t) => {
  const app = await build(t);
  const catalog = await testCatalog();
  // A fresh search over the same file computes the expected page independently of the app's caches.
  const reference = new Catalog(catalog.db.path);
  t.after(() => reference.close());
  const search = reference.search;
  const cases: Record<string, string | number | boolean | string[]>[] = [
    { q: '補助金', limit: 20 },
    { q: '省エネ 設備', fields: 'full', limit: 10, explain: true },
    { q: '新規就農', fields: 'minimal', offset: 5, limit: 5, facets: ['tier', 'prefecture'] },
    { tier: ['S', 'A'], limit: 30, sort: 'amount' },
    { q: '事業承継', sort: 'deadline', limit: 7 },
  ];
  let withDuplicates = 0;
  for (const c of cases) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(c)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
    const fields = (c.fields ?? 'default') as FieldsShape;
    const limit = Number(c.limit ?? 20);
    const offset = Number(c.offset ?? 0);
    const facets = (c.facets ?? []) as Facet[];
    const page = search.search({
      query: readProgramQuery({ q: c.q, tier: c.tier, sort: c.sort }, jstDate()),
      facets,
      explain: c.explain === true,
      limit,
      offset,
    });
    const rows = getProgramRowsByPid(
      reference.db,
      page.hits.map((h) => h.pid),
    );
    const expected = {
      total: page.total,
      limit,
      offset,
      results: page.hits.map((hit) =>
        Object.assign(shapeRow(rows.get(hit.pid)!, fields) as object, hitMembers(hit, page.understood ? readNeed(page.understood, null) : undefined)),
      ),
      attribution: programAttribution(rows.values()),
      next_cursor: page.nextCursor,
      ...(page.facets ? { facets: page.facets } : {}),
    };
    if (fields === 'full') withDuplicates += page.hits.filter((h) => rows.get(h.pid)!.also_listed_as !== '[]').length;
    for (let round = 0; round < 2; round++) {
      const res = await app.inject(`/v1/programs/search?${params}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.body, JSON.stringify(expected), `${params} round ${round}`);
    }
    // The cursor of the page leads to the same next page as the offset would.
    if (page.nextCursor && !c.facets) {
      const next = new URLSearchParams(params);
      next.delete('offset');
      next.set('cursor', page.nextCursor);
      const byCursor = await app.inject(`/v1/programs/search?${next}`);
      const after = new URLSearchParams(params);
      after.set('offset', String(offset + limit));
      const byOffset = await app.inject(`/v1/programs/search?${after}`);
      assert.deepEqual(JSON.parse(byCursor.body).results, JSON.parse(byOffset.body).results);
    }
  }
  assert.ok(withDuplicates > 0, 'the cases cover programmes of several records (also_listed_as of the full shape)');
});

test('a repeated search or detail does no work again; its ETag is the hash of its body; caches are per catalogue', async (t) => {
  const app = await build(t);
  const answers = answersOf(app.catalog);
  const records = app.catalog.programs.records;
  const url = '/v1/programs/search?q=%E7%9C%81%E3%82%A8%E3%83%8D&limit=15';
  const first = await app.inject(url);
  const built = answers.stats.pagesBuilt;
  const serialised = records.stats.recordsSerialised;
  // The same search spelt differently (width, spaces) is the same normalised query.
  const again = await app.inject('/v1/programs/search?q=%20%E7%9C%81%E3%82%A8%E3%83%8D%20&limit=15');
  assert.equal(again.body, first.body);
  assert.equal(again.headers.etag, first.headers.etag);
  assert.equal(answers.stats.pagesBuilt, built, 'served from the page cache');
  const notModified = await app.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
  assert.equal(notModified.statusCode, 304);
  // Another page of the same search reuses the ordered list and serialises only new records.
  await app.inject(`${url}&fields=minimal`);
  assert.equal(answers.stats.pagesBuilt, built + 1);
  assert.ok(records.stats.recordsSerialised <= serialised + 15);
  // Another catalogue object over the same file starts empty.
  const other = new Catalog(app.catalog.db.path);
  t.after(() => other.close());
  assert.equal(answersOf(other).stats.pagesBuilt, 0);
  assert.notEqual(answersOf(other), answers);
  assert.notEqual(other.programs.records, records);
});

test('cached answers in br, gzip or deflate: compressed once by the one compression plugin, the same bytes again, the identity body inside', async (t) => {
  const app = await build(t);
  const url = '/v1/programs/search?q=%E8%A3%9C%E5%8A%A9%E9%87%91&limit=30&fields=full';
  const plain = await app.inject(url);
  for (const [accept, encoding, decode] of [
    ['br', 'br', brotliDecompressSync],
    ['gzip;q=1, br;q=0.5', 'gzip', gunzipSync],
    ['deflate', 'deflate', inflateSync],
  ] as const) {
    const before = compressionStats.compressed;
    const first = await app.inject({ url, headers: { 'accept-encoding': accept } });
    const second = await app.inject({ url, headers: { 'accept-encoding': accept } });
    assert.equal(compressionStats.compressed - before, 1, `${accept}: compressed once for both`);
    assert.equal(first.headers['content-encoding'], encoding, accept);
    assert.match(String(first.headers.vary), /accept-encoding/i);
    assert.equal(first.headers.etag, plain.headers.etag, 'one tag whatever the coding');
    assert.equal(decode(first.rawPayload).toString(), plain.body);
    assert.ok(first.rawPayload.equals(second.rawPayload));
    assert.equal(Number(first.headers['content-length']), first.rawPayload.length, accept);
  }
  const small = await app.inject({ url: '/v1/programs/search?q=zzqqxxyy&limit=1', headers: { 'accept-encoding': 'br' } });
  assert.ok(small.rawPayload.length < 1024);
  assert.equal(small.headers['content-encoding'], undefined, 'below the threshold: as it is');
  const none = await app.inject({ url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
  assert.equal(none.headers['content-encoding'], undefined);
  assert.equal(none.body, plain.body);
});
