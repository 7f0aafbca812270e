// Nothing is lost when the server process dies: a real server on the SQLite
// state store answers metered calls for a paid key and anonymous calls, is
// killed with SIGKILL (no shutdown hook runs), and the store opened afterwards
// holds every usage event, the spend, the meter-outbox rows and the counters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, loadConfig } from '../../src/config.ts';
import { openStateStore } from '../../src/state/index.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstDate, jstMonth as japanMonth } from '../../src/lib/time.ts';
import { hashAddress } from '../../src/plugins/auth.ts';
import { daySalt } from '../../src/access/address-salt.ts';
import { ensureTestCatalog } from '../catalog-fixture.ts';
import { tempDir } from '../helper.ts';

test('sqlite: usage, spend, outbox and counters survive SIGKILL of the server', async (t) => {
  const dataDir = tempDir(t);
  copyFileSync(await ensureTestCatalog(), path.join(dataDir, 'catalog.sqlite'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const setup = await openStateStore(config);
  await setup.migrate();
  const key = generateApiKey();
  const record = await setup.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'paid', customerId: 'cus_crash' });
  await setup.close();

  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/server.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', TRUST_PROXY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer) => {
      out += String(c);
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out.slice(-400)}`)));
  });

  const day = jstDate();
  const month = japanMonth();
  for (let i = 0; i < 7; i++) {
    const res = await fetch(`${base}/v1/programs/search?limit=1`, { headers: { 'x-api-key': key.key } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  }
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${base}/meta`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  }
  child.kill('SIGKILL');
  await once(child, 'exit');

  const after = await openStateStore(config);
  t.after(() => after.close());
  const summary = await after.usage.summary(record.id, month);
  assert.equal(summary.requests, 7, 'every answered request left its usage event');
  assert.equal(summary.billableRequests, 7);
  assert.equal(summary.spendYen, 7 * config.unitPriceYen);
  assert.equal(await after.usage.monthlySpend(record.id, month), 7 * config.unitPriceYen);
  const outbox = await after.meterOutbox.pending(100);
  assert.equal(outbox.length, 7, 'the meter outbox holds every billable event for the flusher');
  assert.equal(new Set(outbox.map((e) => e.eventId)).size, 7);
  const salt = await after.settings.getOrCreate('ip_hash_salt', () => 'not-created-here');
  assert.notEqual(salt, 'not-created-here', 'the salt the server created is still there');
  if (jstDate() === day) {
    // (Skipped only if Japan-time midnight fell inside this test: the calls then span two counters.)
    assert.equal(await after.counters.peek('anon', hashAddress('198.51.100.7', daySalt(salt, day)), day), 4, 'the anonymous counter kept its 4 calls');
  }
  const keyAgain = await after.keys.findByHash(key.hash);
  assert.equal(keyAgain?.status, 'active');
});
