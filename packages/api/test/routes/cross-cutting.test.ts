// Request ids, error shapes, CORS, compression, ETag/304, OpenAPI document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import { build, body, tempDir } from '../helper.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig, REPO_ROOT } from '../../src/config.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { ensureTestCatalog } from '../catalog-fixture.ts';
import { stableJson } from '../../src/cli/openapi-document.ts';

test('X-Request-ID: a sane incoming id is echoed, anything else replaced', async (t) => {
  const app = await build(t);
  const echoed = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123.x:y' } });
  assert.equal(echoed.headers['x-request-id'], 'abc-123.x:y');
  const replaced = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'has space <script>' } });
  assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const generated = await app.inject('/v1/programs/UNI-missing');
  assert.equal(generated.statusCode, 404);
  assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/, 'errors carry an id too');
});

test('unknown routes answer 404 JSON {detail}', async (t) => {
  const app = await build(t);
  for (const url of ['/nope', '/v1/nope', '/v1/programs']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 404, url);
    assert.match(String(res.headers['content-type']), /application\/json/);
    assert.equal(typeof body(res).detail, 'string');
  }
  const wrongMethod = await app.inject({ method: 'DELETE', url: '/v1/programs/search' });
  assert.equal(wrongMethod.statusCode, 404);
});

test('CORS: preflight and simple requests are allowed for browser clients', async (t) => {
  const app = await build(t);
  const pre = await app.inject({
    method: 'OPTIONS',
    url: '/v1/programs/search',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
  });
  assert.equal(pre.statusCode, 204);
  assert.equal(pre.headers['access-control-allow-origin'], '*');
  assert.match(String(pre.headers['access-control-allow-headers']), /X-API-Key/i);
  const simple = await app.inject({ url: '/meta', headers: { origin: 'https://example.org' } });
  assert.equal(simple.headers['access-control-allow-origin'], '*');
  assert.match(String(simple.headers['access-control-expose-headers']), /X-Request-ID/);
});

test('compression: large bodies in br or gzip as asked, identical content', async (t) => {
  const app = await build(t);
  const url = '/v1/programs/search?limit=50&fields=full';
  const plain = await app.inject(url);
  const br = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
  assert.ok(gz.rawPayload.length < plain.rawPayload.length / 3);
});

test('ETag: GETs carry a tag; If-None-Match answers 304 with no body, whatever the encoding', async (t) => {
  const app = await build(t);
  const first = await app.inject('/v1/programs/search?limit=30');
  const tag = first.headers.etag as string;
  assert.match(tag, /^W\/".+"$/);
  const again = await app.inject({ url: '/v1/programs/search?limit=30', headers: { 'if-none-match': tag, 'accept-encoding': 'gzip' } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.rawPayload.length, 0);
  const other = await app.inject({ url: '/v1/programs/search?limit=31', headers: { 'if-none-match': tag } });
  assert.equal(other.statusCode, 200);
  const post = await app.inject({ method: 'POST', url: '/v1/exclusions/check', payload: { program_ids: ['x'] } });
  assert.equal(post.headers.etag, undefined, 'only GETs are tagged');
});

test('OpenAPI: 3.1, generated from the routes, no admin path, committed copy current', async (t) => {
  const app = await build(t);
  const res = await app.inject('/v1/openapi.json');
  assert.equal(res.statusCode, 200);
  const doc = body(res);
  assert.equal(doc.openapi, '3.1.0');
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/v1/programs/search',
    '/v1/programs/{unified_id}',
    '/v1/programs/batch',
    '/v1/exclusions/rules',
    '/v1/exclusions/check',
    '/meta',
    '/healthz',
    '/v1/ping',
  ]) {
    assert.ok(paths.includes(p), `${p} documented`);
  }
  assert.ok(!paths.some((p) => p.startsWith('/v1/admin')), 'no admin path');
  assert.ok(!paths.includes('/v1/openapi.json'));
  const committed = readFileSync(path.join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8');
  assert.equal(stableJson(doc), committed, 'docs/openapi.json is current: run `npm run openapi`');
});

test('batch: a failure reading the store fails the whole batch with 500, no partial results, no internals', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'catalog.sqlite');
  copyFileSync(await ensureTestCatalog(), file);
  const db = new DatabaseSync(file);
  const [good, bad] = (db.prepare('SELECT unified_id FROM programs ORDER BY pid LIMIT 2').all() as { unified_id: string }[]).map((r) => r.unified_id);
  db.prepare("UPDATE programs SET enriched = '{not json' WHERE unified_id = ?").run(bad);
  db.close();
  const catalog = new Catalog(file);
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dir }), catalog, ownsCatalog: true });
  t.after(() => app.close());
  const res = await app.inject({ method: 'POST', url: '/v1/programs/batch', payload: { unified_ids: [good, bad] } });
  assert.equal(res.statusCode, 500);
  assert.deepEqual(body(res), { detail: 'Internal server error' });
  const ok = await app.inject({ method: 'POST', url: '/v1/programs/batch', payload: { unified_ids: [good] } });
  assert.equal(ok.statusCode, 200);
});
