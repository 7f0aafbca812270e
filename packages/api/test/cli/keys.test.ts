// The operator CLI: keys create/list/revoke and device approve, against the
// SQLite state of a temp DATA_DIR, as an operator runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../../src/config.ts';
import { tempDir } from '../helper.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import { hashApiKey } from '../../src/access/keys.ts';
import { startDeviceAuthorization } from '../../src/access/device.ts';
import path from 'node:path';

function cli(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('keys create prints the key alone on the last line; list shows prefixes only; revoke by prefix and id', async (t) => {
  const dir = tempDir(t);
  const created = cli(dir, 'keys', 'create', '--tier', 'paid', '--customer-id', 'cus_cli');
  assert.equal(created.code, 0, created.stderr);
  const key = created.stdout.trim().split('\n').at(-1)!;
  assert.match(key, /^am_[0-9A-Za-z]{40}$/);
  const second = cli(dir, 'keys', 'create', '--tier', 'free').stdout.trim().split('\n').at(-1)!;

  const store = openSqliteStore(path.join(dir, 'state.sqlite'));
  t.after(() => store.close());
  const record = await store.keys.findByHash(hashApiKey(key));
  assert.equal(record?.tier, 'paid');
  assert.equal(record?.customerId, 'cus_cli');

  const list = cli(dir, 'keys', 'list');
  assert.equal(list.code, 0);
  assert.ok(list.stdout.includes(record!.prefix));
  assert.ok(!list.stdout.includes(key) && !list.stdout.includes(second), 'never the full key');
  assert.ok(!list.stdout.includes(record!.keyHash), 'never the hash');

  assert.equal(cli(dir, 'keys', 'revoke', record!.prefix).code, 0);
  assert.equal((await store.keys.findById(record!.id))?.status, 'revoked');
  assert.equal(cli(dir, 'keys', 'revoke', record!.prefix).code, 1, 'nothing left to revoke');
  const secondRecord = await store.keys.findByHash(hashApiKey(second));
  assert.equal(cli(dir, 'keys', 'revoke', String(secondRecord!.id)).code, 0);
  assert.equal((await store.keys.findById(secondRecord!.id))?.status, 'revoked');

  assert.equal(cli(dir, 'keys', 'create', '--tier', 'gold').code, 1);
  assert.equal(cli(dir, 'keys', 'bogus').code, 1);
});

test('device approve binds a new key to a waiting user code; unknown codes fail', async (t) => {
  const dir = tempDir(t);
  const store = openSqliteStore(path.join(dir, 'state.sqlite'));
  await store.migrate();
  t.after(() => store.close());
  const started = await startDeviceAuthorization(store, 'cli-test', 'api:read');
  const ok = cli(dir, 'device', 'approve', started.userCode, '--tier', 'paid', '--customer-id', 'cus_dev');
  assert.equal(ok.code, 0, ok.stderr);
  const code = await store.deviceCodes.findByUserCode(started.userCode);
  assert.equal(code?.status, 'approved');
  assert.equal((await store.keys.findById(code!.keyId!))?.customerId, 'cus_dev');
  assert.equal(cli(dir, 'device', 'approve', started.userCode).code, 1, 'already approved');
  assert.equal(cli(dir, 'device', 'deny', 'BBBB-BBBB').code, 1, 'unknown code');
});
