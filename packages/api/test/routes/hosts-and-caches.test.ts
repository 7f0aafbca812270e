// Issue 24, L7 and L8: webhook targets written as IPv4-compatible or
// IPv4-translated IPv6 addresses of loopback are refused; answers that vary
// by key say `Cache-Control: private, no-store`. (The landing page's
// examples from PUBLIC_BASE_URL, not the Host header: test/portal/pages.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { isSpecialAddress, parseTarget, TargetError } from '../../src/outbound/target.ts';

/** IPv6 (and numeric) spellings of loopback and private IPv4 addresses. */
const SPELLINGS = [
  'https://[::127.0.0.1]/',
  'https://[::7f00:1]/',
  'https://[::ffff:0:7f00:1]/',
  'https://[::ffff:0:127.0.0.1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::10.0.0.1]/',
  'https://[::ffff:0:a00:1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::]/',
  'https://2130706433/',
];

test('parseTarget and isSpecialAddress: every IPv6 spelling of a loopback or private IPv4 address is refused (L7)', () => {
  for (const url of SPELLINGS) assert.throws(() => parseTarget(url, false), TargetError, url);
  for (const address of ['::7f00:1', '::ffff:0:7f00:1', '::a00:1']) assert.ok(isSpecialAddress(address), address);
  assert.ok(!isSpecialAddress('2001:4860:4860::8888'), 'a public address passes');
});

test('webhook targets: those spellings are refused by POST /v1/me/webhooks with a 400 (L7)', async (t) => {
  const app = await build(t);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free' });
  for (const url of SPELLINGS.slice(0, 4)) {
    const res = await app.inject({ method: 'POST', url: '/v1/me/webhooks', headers: { 'x-api-key': k.key }, payload: { url, events: ['program.created'] } });
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    assert.match(body(res).detail, /^Invalid body: url: /);
  }
});

test('answers that vary by key are private and never stored; public answers are not marked (L8)', async (t) => {
  const app = await build(t);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free' });
  const headers = { 'x-api-key': k.key };
  for (const url of ['/v1/me', '/v1/me/dashboard', '/v1/me/webhooks', '/v1/me/saved_searches', '/v1/me/billing_history']) {
    const res = await app.inject({ url, headers });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    assert.equal(res.headers['cache-control'], 'private, no-store', url);
  }
  assert.equal((await app.inject({ url: '/v1/me' })).headers['cache-control'], 'private, no-store', 'the 401 too');
  const cap = await app.inject({ method: 'POST', url: '/v1/me/cap', headers, payload: { monthly_cap_yen: 100 } });
  assert.equal(cap.headers['cache-control'], 'private, no-store');
  const search = await app.inject({ url: '/v1/programs/search?limit=1', headers });
  assert.equal(search.headers['cache-control'], undefined, 'a catalogue answer is the same for every caller');
});
