// Who is who (issue 11, findings 1, 4 and 5): TRUST_PROXY is parsed as
// Fastify defines it and a client cannot pick its own anonymous bucket;
// addresses are normalised before hashing; X-Forwarded-Host and Host never
// choose the links we hand out; keys in URLs never reach the log; secrets
// come from the environment or a file, and production refuses to start
// without them; the address salt changes with the Japan-time day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { build, body, tempDir } from '../helper.ts';
import { ConfigError, loadConfig, parseTrustProxy } from '../../src/config.ts';
import { normaliseAddress } from '../../src/access/client-address.ts';
import { daySalt, dailySalts } from '../../src/access/address-salt.ts';
import { loggerOptions } from '../../src/http/logger.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { buildApp } from '../../src/app.ts';
import { testCatalog } from '../helper.ts';
import Fastify from 'fastify';
import forwardedHost from '../../src/plugins/forwarded-host.ts';

test('TRUST_PROXY is read as Fastify defines it; anything else is refused at start', () => {
  for (const off of [null, '', 'false', '0', ' false ']) assert.equal(parseTrustProxy(off), false, String(off));
  assert.equal(parseTrustProxy('true'), true);
  assert.equal(parseTrustProxy('2'), 2);
  assert.deepEqual(parseTrustProxy('10.0.0.0/8, 192.0.2.7,2001:db8::/32,loopback'), ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32', 'loopback']);
  for (const bad of ['yes', '10.0.0.0/33', '192.0.2.1:80', 'proxy.internal', '10.0.0.0/8/1']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), ConfigError, bad);
  }
});

/** Two anonymous calls with limit 1: true when the second is refused (same bucket). */
async function sameBucket(env: Record<string, string>, first: Record<string, string>, second: Record<string, string>): Promise<boolean> {
  const t = { after: (fn: () => unknown) => void cleanups.push(fn) };
  const app = await build(t, { ANON_DAILY_LIMIT: '1', ...env });
  // /meta, not /v1/ping: anonymous pings are not counted (docs/decisions/0267-anonymous-pings-are-not-counted.md).
  const a = await app.inject({ url: '/meta', headers: first });
  assert.equal(a.statusCode, 200, a.body);
  const b = await app.inject({ url: '/meta', headers: second });
  return b.statusCode === 429;
}
const cleanups: (() => unknown)[] = [];
test.after(async () => {
  for (const c of cleanups) await c();
});

test('without TRUST_PROXY, or with "false"/"0", X-Forwarded-For cannot buy a fresh anonymous allowance', async () => {
  for (const value of [undefined, 'false', '0']) {
    const env: Record<string, string> = value === undefined ? {} : { TRUST_PROXY: value };
    assert.ok(await sameBucket(env, { 'x-forwarded-for': '203.0.113.1' }, { 'x-forwarded-for': '203.0.113.2' }), `TRUST_PROXY=${value}`);
  }
});

test('a hop count or a CIDR list trusts only the proxy hops: a forged leftmost entry changes nothing', async () => {
  for (const value of ['1', '127.0.0.0/8', '127.0.0.1,::1']) {
    assert.ok(
      await sameBucket({ TRUST_PROXY: value }, { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' }, { 'x-forwarded-for': '198.51.100.2, 203.0.113.9' }),
      value,
    );
    assert.equal(
      await sameBucket({ TRUST_PROXY: value }, { 'x-forwarded-for': '203.0.113.9' }, { 'x-forwarded-for': '203.0.113.10' }),
      false,
      `${value}: two real clients`,
    );
  }
  // A list that does not hold the socket's address trusts nothing.
  assert.ok(await sameBucket({ TRUST_PROXY: '10.0.0.0/8' }, { 'x-forwarded-for': '203.0.113.1' }, { 'x-forwarded-for': '203.0.113.2' }));
});

test('normaliseAddress: an address with a port is the address; a value that is no address is null', () => {
  assert.equal(normaliseAddress('203.0.113.9:5678'), '203.0.113.9');
  assert.equal(normaliseAddress('[2001:DB8::1]:443'), '2001:db8::1');
  assert.equal(normaliseAddress('fe80::1%eth0'), 'fe80::1');
  for (const junk of ['unknown', 'ip:port', '', '1.2.3', '203.0.113.9:99999x']) assert.equal(normaliseAddress(junk), null, junk);
});

test('an address with a port is the address; a value that is no address answers 400, not a bucket of its own', async (t) => {
  assert.ok(await sameBucket({ TRUST_PROXY: '1' }, { 'x-forwarded-for': '203.0.113.9:1111' }, { 'x-forwarded-for': '203.0.113.9:2222' }));
  const app = await build(t, { TRUST_PROXY: '1' });
  for (const junk of ['unknown', 'ip:port', 'x'.repeat(40)]) {
    const res = await app.inject({ url: '/v1/ping', headers: { 'x-forwarded-for': junk } });
    assert.equal(res.statusCode, 400, junk);
    assert.match(body(res).detail, /client address/);
  }
});

test('verification_uri comes from PUBLIC_BASE_URL, never from Host or X-Forwarded-Host', async (t) => {
  const app = await build(t, { TRUST_PROXY: '1', PUBLIC_BASE_URL: 'https://api.example.jp/' });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/device/authorize',
    payload: {},
    headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(body(res).verification_uri, 'https://api.example.jp/device');
  assert.match(body(res).verification_uri_complete, /^https:\/\/api\.example\.jp\/device\?user_code=/);
  // X-Forwarded-Host is dropped before any route sees it unless the operator trusts it.
  for (const [trusted, expected] of [
    ['false', 'api.internal'],
    ['true', 'evil.example'],
  ] as const) {
    const probe = Fastify({ trustProxy: true });
    probe.decorate('config', loadConfig({ TRUST_FORWARDED_HOST: trusted }));
    await probe.register(forwardedHost);
    probe.get('/', async (request) => ({ host: request.host }));
    const res = await probe.inject({ url: '/', headers: { host: 'api.internal', 'x-forwarded-host': 'evil.example' } });
    assert.equal(body(res).host, expected, `TRUST_FORWARDED_HOST=${trusted}`);
  }
  assert.equal(loadConfig({ PORT: '9000' }).publicBaseUrl, 'http://127.0.0.1:9000');
  assert.throws(() => loadConfig({ PUBLIC_BASE_URL: 'https://x.example/?a=1' }), ConfigError);
});

test('a key in the query string or path never reaches the log', async (t) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({ DATA_DIR: tempDir(t) });
  const app = await buildApp({ config, catalog: await testCatalog(), logger: { ...(loggerOptions('info') as object), stream } });
  t.after(() => app.close());
  const key = generateApiKey();
  await app.state.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'free' });
  await app.inject({ url: `/v1/programs/search?api_key=${key.key}&q=x` });
  await app.inject({ url: `/v1/programs/search?q=${key.key}` });
  await app.inject({ url: `/v1/programs/${key.key}` });
  await app.inject({ url: `/v1/ping?token=secret-token-value` });
  const log = lines.join('');
  assert.ok(lines.length >= 4);
  assert.ok(!log.includes(key.key), 'no key in the log');
  assert.ok(!log.includes(key.key.slice(3, 20)), 'no part of the key beyond am_');
  assert.ok(!log.includes('secret-token-value'));
  assert.match(log, /api_key=\[redacted\]/);
});

test('secrets come from the environment or a file; production refuses to start without them', (t) => {
  const dir = tempDir(t);
  const saltFile = path.join(dir, 'salt');
  const secretFile = path.join(dir, 'secret');
  writeFileSync(saltFile, `${'s'.repeat(40)}\n`);
  writeFileSync(secretFile, 'k'.repeat(40));
  const production = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.jp' };
  assert.throws(() => loadConfig(production), /IP_HASH_SALT, SERVER_SECRET/);
  assert.throws(() => loadConfig({ ...production, IP_HASH_SALT: 's'.repeat(40) }), /SERVER_SECRET/);
  assert.throws(() => loadConfig({ NODE_ENV: 'production', IP_HASH_SALT: 's'.repeat(40), SERVER_SECRET: 'k'.repeat(40) }), /PUBLIC_BASE_URL/);
  assert.throws(() => loadConfig({ ...production, IP_HASH_SALT: 'short', SERVER_SECRET: 'k'.repeat(40) }), /at least 32/);
  const fromFiles = loadConfig({ ...production, IP_HASH_SALT_FILE: saltFile, SERVER_SECRET_FILE: secretFile });
  assert.equal(fromFiles.ipHashSalt, 's'.repeat(40), 'trailing newline trimmed');
  assert.equal(fromFiles.serverSecret, 'k'.repeat(40));
  assert.throws(() => loadConfig({ IP_HASH_SALT_FILE: path.join(dir, 'missing') }), /cannot read/);
  assert.throws(() => loadConfig({ IP_HASH_SALT: 'a', IP_HASH_SALT_FILE: saltFile }), /not both/);
  // Outside production the store-persisted fallback stays (development, tests).
  assert.equal(loadConfig({}).ipHashSalt, null);
});

test('the address salt is derived per Japan-time day: replicas agree, days differ', () => {
  const master = 'm'.repeat(40);
  assert.equal(daySalt(master, '2025-01-01'), daySalt(master, '2025-01-01'));
  assert.notEqual(daySalt(master, '2025-01-01'), daySalt(master, '2025-01-02'));
  assert.notEqual(daySalt(master, '2025-01-01'), daySalt('n'.repeat(40), '2025-01-01'));
  const saltFor = dailySalts(master);
  // 14:59 UTC and 15:00 UTC fall on two Japan-time days.
  assert.equal(saltFor(new Date('2025-01-01T14:59:59Z')), daySalt(master, '2025-01-01'));
  assert.equal(saltFor(new Date('2025-01-01T15:00:00Z')), daySalt(master, '2025-01-02'));
});
