// Guessing keys does not pay, and one key cannot hoard sessions (issue 24,
// L4 and L5): wrong API keys at POST /v1/session and wrong admin keys are
// counted per client address per hour, and past AUTH_FAILURE_LIMIT both
// answer 429 to that address (a right key too) while other addresses are
// served; one key keeps at most 20 live sessions; the login reads keys
// through the key cache; production refuses a weak admin key, private
// outbound targets and secret files inside DATA_DIR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { build, body, tempDir } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { loadConfig } from '../../src/config.ts';
import { buildWithStore } from '../state/app.ts';
import { FACTORIES } from '../state/stores.ts';

const XFF = (address: string) => ({ 'x-forwarded-for': address });
const ADMIN = `admin-${'q'.repeat(40)}`;

for (const factory of FACTORIES) {
  test(`${factory.kind}: wrong keys at POST /v1/session: AUTH_FAILURE_LIMIT per address per hour, then 429 there (a right key too), not elsewhere (L4)`, {
    skip: factory.skip,
  }, async (t) => {
    const { app } = await buildWithStore(t, factory, { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '5' });
    const right = generateApiKey();
    await app.state.keys.create({ keyHash: right.hash, prefix: right.prefix, tier: 'free' });
    const login = (apiKey: string, address: string) => app.inject({ method: 'POST', url: '/v1/session', headers: XFF(address), payload: { api_key: apiKey } });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await login(generateApiKey().key, '198.51.100.31')).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429, 429]);
    const blocked = await login(right.key, '198.51.100.31');
    assert.equal(blocked.statusCode, 429, 'past the limit, a right key gets the same answer: guessing learns nothing');
    assert.match(body(blocked).detail, /Too many wrong keys from this address/);
    assert.ok(Number(blocked.headers['retry-after']) > 0 && Number(blocked.headers['retry-after']) <= 3600);
    assert.equal((await login(right.key, '198.51.100.32')).statusCode, 200, 'another address logs in');
    assert.equal((await login(right.key, '198.51.100.33')).statusCode, 200, 'a right key is no failure');
  });
}

test('one key keeps at most 20 live sessions: the oldest end first (L4)', async (t) => {
  const app = await build(t);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free' });
  const cookies: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: k.key } });
    assert.equal(res.statusCode, 200, res.body);
    cookies.push(String(res.headers['set-cookie']).split(';')[0]);
  }
  const db = new DatabaseSync(path.join(app.config.dataDir, 'state.sqlite'), { readOnly: true });
  const { n } = db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number };
  db.close();
  assert.equal(n, 20);
  assert.equal((await app.inject({ url: '/v1/session', headers: { cookie: cookies[29] } })).statusCode, 200, 'the newest lives');
  assert.equal((await app.inject({ url: '/v1/session', headers: { cookie: cookies[0] } })).statusCode, 401, 'the oldest ended');
});

test('the login reads the key through the key cache (L4)', async (t) => {
  const app = await build(t);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free' });
  await app.keyCache.poll();
  await app.keyCache.poll();
  const hits = app.keyCache.stats.hits + app.keyCache.stats.misses;
  for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: k.key } })).statusCode, 200);
  assert.equal(app.keyCache.stats.hits + app.keyCache.stats.misses - hits, 3, 'three look-ups through the cache');
  assert.ok(app.keyCache.stats.hits >= 2, 'the second and third were hits');
});

test('wrong admin keys: AUTH_FAILURE_LIMIT per address per hour, then 429 (L5)', async (t) => {
  const app = await build(t, { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT: '4', ADMIN_API_KEY: ADMIN });
  const admin = (key: string, address: string) => app.inject({ url: '/v1/admin/errors', headers: { ...XFF(address), 'x-admin-key': key } });
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await admin(`wrong-${i}`, '198.51.100.41')).statusCode);
  assert.deepEqual(statuses, [403, 403, 403, 403, 429, 429, 429]);
  assert.equal((await admin(ADMIN, '198.51.100.41')).statusCode, 429, 'the right key too, from that address');
  assert.equal((await admin(ADMIN, '198.51.100.42')).statusCode, 200, 'another address');
});

test('production refuses a short admin key, private outbound targets and secret files inside DATA_DIR (L5)', (t) => {
  const dir = tempDir(t);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  const outside = path.join(dir, 'secret');
  const inside = path.join(dataDir, 'secret');
  writeFileSync(outside, 'k'.repeat(40));
  writeFileSync(inside, 'k'.repeat(40));
  const production = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.jp', IP_HASH_SALT: 's'.repeat(40), DATA_DIR: dataDir };
  assert.ok(loadConfig({ ...production, SERVER_SECRET_FILE: outside, ADMIN_API_KEY: 'a'.repeat(32) }));
  assert.throws(() => loadConfig({ ...production, SERVER_SECRET: 'k'.repeat(40), ADMIN_API_KEY: 'a' }), /ADMIN_API_KEY must be at least 32 characters/);
  assert.throws(() => loadConfig({ ...production, SERVER_SECRET: 'k'.repeat(40), OUTBOUND_ALLOW_PRIVATE: 'true' }), /OUTBOUND_ALLOW_PRIVATE/);
  assert.throws(() => loadConfig({ ...production, SERVER_SECRET_FILE: inside }), /SERVER_SECRET_FILE .*inside DATA_DIR/);
  assert.throws(
    () => loadConfig({ ...production, SERVER_SECRET: 'k'.repeat(40), IP_HASH_SALT: undefined, IP_HASH_SALT_FILE: inside }),
    /IP_HASH_SALT_FILE .*inside DATA_DIR/,
  );
  // Outside production the same settings stay possible (development, tests).
  assert.ok(loadConfig({ ADMIN_API_KEY: 'a', OUTBOUND_ALLOW_PRIVATE: 'true', SERVER_SECRET_FILE: inside, DATA_DIR: dataDir }));
});
