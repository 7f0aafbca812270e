// The portal's pages and assets as HTTP answers (the browser test drives
// them): HTML with the security headers, never counted against anyone's
// allowance, hidden from the OpenAPI document, request values escaped, every
// asset a page names served from this server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { acceptsBrotli, CONTENT_SECURITY_POLICY } from '../../src/portal/index.ts';
import { browserScript } from '../../src/portal/assets.ts';
import { preferredLanguage } from '../../src/portal/language.ts';
import { LABELS } from '../../src/portal/browser/labels.ts';
import { TAGS_JA } from '../../src/portal/browser/docs-ja.ts';
import { asOpenApi30 } from '../../src/portal/browser/openapi-view.ts';
import { OPENAPI_TAGS } from '../../src/schemas/tags.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { DEFAULTS } from '../../src/plugins/route-policy.ts';

const PAGES = ['/', '/docs', '/explore', '/account'];

test('every page is HTML with a strict CSP, in Japanese and English, and names only assets this server serves', async (t) => {
  const app = await build(t);
  for (const url of PAGES) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', url);
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY, url);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.body, /<html lang="ja">/, 'Japanese without a choice');
    assert.match(String(res.headers.vary), /accept-language/i, `${url}: the language may come from Accept-Language`);
    assert.doesNotMatch(res.body, /<script>(?!\s*<\/script>)|<script [^>]*>[^<]+<\/script>|\son\w+=/i, `${url}: no inline script or handler`);
    const assets = [...res.body.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]).filter((u) => !u.startsWith('data:'));
    for (const asset of assets) {
      assert.ok(asset.startsWith('/'), `${url} names only this server's addresses: ${asset}`);
      if (!asset.startsWith('/portal/')) continue;
      const served = await app.inject(asset);
      assert.equal(served.statusCode, 200, asset);
      assert.match(String(served.headers['content-type']), /^text\/(css|javascript)/, asset);
    }
  }
  const script = await app.inject('/portal/js/explore.ts');
  assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.doesNotMatch(script.body, /: SearchState\b|interface Program/, 'types are stripped');
  const vendor = await app.inject((/src="(\/portal\/vendor\/[^"]+\.js)"/.exec((await app.inject('/docs')).body) ?? [])[1]!);
  assert.equal(vendor.statusCode, 200);
  assert.match(String(vendor.headers['cache-control']), /immutable/, 'Swagger UI is served under its version, cached for good');
});

test('pages are not counted, not billed and not in the OpenAPI document', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1' });
  for (let i = 0; i < 3; i++) for (const url of PAGES) assert.equal((await app.inject({ url, remoteAddress: '198.51.100.4' })).statusCode, 200, url);
  for (const url of PAGES)
    assert.deepEqual(app.routePolicies.get(`GET ${url}`), { access: 'public', ...DEFAULTS }, `${url}: the defaults, not counted, not billed`);
  const paths = Object.keys(body(await app.inject('/v1/openapi.json')).paths);
  assert.ok(!paths.some((p) => p === '/' || p.startsWith('/portal') || ['/docs', '/explore', '/account'].includes(p)), paths.join());
});

test('the landing page shows the counts of /meta and examples for PUBLIC_BASE_URL, whatever the Host header says', async (t) => {
  const app = await build(t, { PUBLIC_BASE_URL: 'https://api.example.jp' });
  const meta = body(await app.inject('/meta'));
  const res = await app.inject({ url: '/', headers: { host: 'evil.example' } });
  assert.ok(res.body.includes(meta.total_programs.toLocaleString('en-US')), 'programme count');
  assert.ok(res.body.includes(String(meta.exclusion_rules_count)));
  assert.match(res.body, /&quot;JPSP_API_BASE_URL&quot;: &quot;https:\/\/api\.example\.jp&quot;/, 'the MCP example names the configured origin');
  assert.ok(!res.body.includes('evil.example'), 'the Host header is not written into the page');
  const hostile = await app.inject({ url: '/', headers: { host: 'x"><script>alert(1)</script>' } });
  assert.equal(hostile.statusCode, 200);
  assert.ok(!hostile.body.includes('<script>alert(1)</script>'));
});

test('page scripts are TypeScript served with their types blanked out', () => {
  const js = browserScript("import type { A } from './a.ts';\nexport const x: number = 1;\nfunction f(a: string): void {}\n");
  assert.doesNotMatch(js, /import type|: number|: string|: void/);
  assert.match(js, /export const x {9}= 1;/, 'positions are kept');
});

/** Texts of the table in one language that never appear in the other (long enough not to be a shared word). */
const ONLY = (lang: 0 | 1) =>
  Object.values(LABELS)
    .filter(([ja, en]) => ja !== en)
    .map((pair) => pair[lang].replace(/\{\w+\}.*$/s, ''))
    .filter((t) => t.length >= 8);

test('every page in one language: ?lang= first, then Accept-Language; a switch to the other; links keep a chosen language', async (t) => {
  const app = await build(t);
  const english = ONLY(1);
  const japanese = ONLY(0);
  for (const url of PAGES) {
    const ja = await app.inject({ url, headers: { 'accept-language': 'ja,en;q=0.5' } });
    const en = await app.inject({ url, headers: { 'accept-language': 'en-GB,en;q=0.9,ja;q=0.2' } });
    assert.match(ja.body, /<html lang="ja">/, url);
    assert.match(en.body, /<html lang="en">/, url);
    assert.deepEqual(
      english.filter((text) => ja.body.includes(text)),
      [],
      `${url} in Japanese shows no English label`,
    );
    assert.deepEqual(
      japanese.filter((text) => en.body.includes(text)),
      [],
      `${url} in English shows no Japanese label`,
    );
    // The switch names the other language and links to this page in it.
    assert.match(ja.body, /<a class="lang-switch" id="lang-switch" href="[^"]*lang=en" hreflang="en" lang="en"[^>]*>English<\/a>/, url);
    assert.match(en.body, /<a class="lang-switch" id="lang-switch" href="[^"]*lang=ja" hreflang="ja" lang="ja"[^>]*>日本語<\/a>/, url);
    // ?lang= wins over the header, and the navigation keeps it.
    const chosen = await app.inject({ url: `${url}?lang=en`, headers: { 'accept-language': 'ja' } });
    assert.match(chosen.body, /<html lang="en">/, url);
    assert.match(chosen.body, /<a href="\/docs\?lang=en"/, `${url}: internal links keep ?lang=en`);
    assert.doesNotMatch(en.body, /<a href="\/docs\?lang=/, `${url}: without ?lang= the links stay plain`);
  }
  // The explore page keeps a search's query when switching.
  const explore = await app.inject({ url: '/explore?q=%E7%9C%81%E3%82%A8%E3%83%8D&tier=A' });
  assert.match(explore.body, /id="lang-switch" href="\/explore\?q=%E7%9C%81%E3%82%A8%E3%83%8D&amp;tier=A&amp;lang=en"/);
});

test('Accept-Language: the first of Japanese and English by preference', () => {
  assert.equal(preferredLanguage(undefined), 'ja');
  assert.equal(preferredLanguage(''), 'ja');
  assert.equal(preferredLanguage('en-US,en;q=0.9'), 'en');
  assert.equal(preferredLanguage('fr-FR, en;q=0.5, ja;q=0.8'), 'ja');
  assert.equal(preferredLanguage('ja;q=0, en'), 'en', 'q=0 refuses');
  assert.equal(preferredLanguage('de, fr'), 'en', 'neither: English');
  assert.equal(preferredLanguage('*'), 'ja');
});

test('the API reference: every operation group explained in the document and in Japanese; the 3.0 view keeps every nullable', async (t) => {
  const app = await build(t);
  const document = body(await app.inject('/v1/openapi.json'));
  const used = new Set<string>();
  for (const item of Object.values(document.paths) as Record<string, { tags?: string[] }>[])
    for (const op of Object.values(item)) for (const tag of op.tags ?? []) used.add(tag);
  assert.deepEqual(
    [...used].filter((tag) => !OPENAPI_TAGS.some((declared) => declared.name === tag)),
    [],
    'every tag an operation uses is declared with a description (schemas/tags.ts)',
  );
  assert.deepEqual(
    document.tags.map((tag: { name: string }) => tag.name),
    OPENAPI_TAGS.map((tag) => tag.name),
  );
  for (const tag of document.tags) assert.ok(tag.description.length > 40, `${tag.name} is explained`);
  assert.match(document.tags.find((tag: { name: string }) => tag.name === 'am').description, /entity graph/);
  assert.deepEqual(Object.keys(TAGS_JA).sort(), OPENAPI_TAGS.map((tag) => tag.name).sort(), 'every group has its Japanese description (docs-ja.ts)');

  // Enumerations are shown as values: no union of one-value schemas is left.
  const search = document.paths['/v1/programs/search'].get.parameters.find((p: { name: string }) => p.name === 'tier');
  assert.deepEqual(search.schema.items, { type: 'string', enum: ['S', 'A', 'B', 'C', 'X'] });
  assert.doesNotMatch(JSON.stringify(document), /"anyOf":\[\{"type":"string","enum":\["[^"]*"\]\},\{"type":"string","enum"/);

  // The page's 3.0 view: no `type: null` left, and every schema that allowed null still does.
  const published = JSON.stringify(document);
  const view = asOpenApi30(document);
  const text = JSON.stringify(view);
  assert.equal(view.openapi, '3.0.3');
  assert.doesNotMatch(text, /"type":"null"/);
  assert.equal((text.match(/"nullable":true/g) ?? []).length, (published.match(/\{"type":"null"\}/g) ?? []).length);
  assert.deepEqual(document, JSON.parse(published), 'the published document is not changed by the view');
  // The committed copy is the served one.
  assert.deepEqual(JSON.parse(readFileSync(path.join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')), document);
});

test("Swagger UI's files: compressed once (brotli), the same tag as the identity body", async (t) => {
  const app = await build(t);
  const url = (/src="(\/portal\/vendor\/[^"]+\.js)"/.exec((await app.inject('/docs')).body) ?? [])[1]!;
  const identity = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
  assert.equal(identity.headers['content-encoding'], undefined);
  let br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
  for (let i = 0; i < 200 && br.rawPayload.length > 420_000; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
  }
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.rawPayload.length < 400_000, `brotli at quality 9: ${br.rawPayload.length} bytes`);
  assert.equal(br.headers.etag, identity.headers.etag);
  const { brotliDecompressSync } = await import('node:zlib');
  assert.ok(brotliDecompressSync(br.rawPayload).equals(identity.rawPayload));
  assert.equal(acceptsBrotli('gzip, br;q=0'), false);
  assert.equal(acceptsBrotli(['gzip', 'BR']), true);
});
