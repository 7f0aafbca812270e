// Two real server processes share one PostgreSQL schema; concurrent requests
// from one free key and from one anonymous address never pass the daily
// limit, not even by one. Runs when TEST_DATABASE_URL is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { ensureTestCatalog } from '../catalog-fixture.ts';
import { postgresFactory, TEST_DATABASE_URL } from './stores.ts';
import { generateApiKey } from '../../src/access/keys.ts';

const LIMIT = 15;

async function startServer(t: { after(fn: () => unknown): void }, env: Record<string, string>): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/server.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output.slice(-500)}`)));
  });
}

test('postgres: two server processes never pass the free-key or anonymous daily limit', { skip: postgresFactory.skip }, async (t) => {
  const db = await postgresFactory.open(t);
  const key = generateApiKey();
  await db.store.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'free' });
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${db.location}`);
  const env = {
    DATA_DIR: path.dirname(await ensureTestCatalog()),
    DATABASE_URL: url.toString(),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    TRUST_PROXY: '1',
    FREE_DAILY_LIMIT: String(LIMIT),
    ANON_DAILY_LIMIT: String(LIMIT),
  };
  const servers = await Promise.all([startServer(t, env), startServer(t, env)]);
  assert.notEqual(servers[0], servers[1]);

  const burst = async (headers: Record<string, string>) => {
    const statuses = await Promise.all(
      Array.from({ length: 4 * LIMIT }, (_, i) =>
        fetch(`${servers[i % 2]}/v1/programs/search?limit=1`, { headers }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    return { ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length };
  };

  const keyed = await burst({ 'x-api-key': key.key });
  assert.deepEqual(keyed, { ok: LIMIT, limited: 3 * LIMIT });
  const anonymous = await burst({ 'x-forwarded-for': '203.0.113.200' });
  assert.deepEqual(anonymous, { ok: LIMIT, limited: 3 * LIMIT });
  // Both processes saw the same counter.
  for (const server of servers) {
    const res = await fetch(`${server}/v1/ping`, { headers: { 'x-api-key': key.key } });
    assert.equal(res.status, 429);
  }
});
