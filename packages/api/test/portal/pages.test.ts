// The portal's pages and assets as HTTP answers (the browser test drives
// them): HTML with the security headers, never counted against anyone's
// allowance, hidden from the OpenAPI document, request values escaped, every
// asset a page names served from this server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/portal/index.ts';
import { browserScript } from '../../src/portal/assets.ts';

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
    assert.match(res.body, /<html lang="ja">/);
    assert.match(res.body, /<span lang="en" class="en">/, `${url} has English labels`);
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
    assert.deepEqual(app.routePolicies.get(`GET ${url}`), {
      access: 'public',
      counter: null,
      billed: false,
      extraLimit: null,
      session: false,
      units: 'request',
      unitRows: null,
    });
  const paths = Object.keys(body(await app.inject('/v1/openapi.json')).paths);
  assert.ok(!paths.some((p) => p === '/' || p.startsWith('/portal') || ['/docs', '/explore', '/account'].includes(p)), paths.join());
});

test('the landing page shows the counts of /meta and examples for the origin used, escaped', async (t) => {
  const app = await build(t);
  const meta = body(await app.inject('/meta'));
  const res = await app.inject({ url: '/', headers: { host: 'api.example.jp' } });
  assert.ok(res.body.includes(meta.total_programs.toLocaleString('en-US')), 'programme count');
  assert.ok(res.body.includes(String(meta.exclusion_rules_count)));
  assert.match(res.body, /&quot;JPSP_API_BASE_URL&quot;: &quot;http:\/\/api\.example\.jp&quot;/, 'the MCP example names this origin');
  const hostile = await app.inject({ url: '/', headers: { host: 'x"><script>alert(1)</script>' } });
  assert.equal(hostile.statusCode, 200);
  assert.ok(!hostile.body.includes('<script>alert(1)</script>'), 'a hostile Host header is escaped');
});

test('page scripts are TypeScript served with their types blanked out', () => {
  const js = browserScript("import type { A } from './a.ts';\nexport const x: number = 1;\nfunction f(a: string): void {}\n");
  assert.doesNotMatch(js, /import type|: number|: string|: void/);
  assert.match(js, /export const x {9}= 1;/, 'positions are kept');
});
