// A real `npm run cli -- sync jgrants` process killed with SIGKILL halfway
// through the details, then run again: the second run neither lists again
// nor fetches what the first stored, and publishes. Its progress, off a
// terminal, is plain lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { REPO_ROOT } from '../../src/config.ts';
import { tempDir } from '../helper.ts';
import { startJgrantsFake, jgrantsRecord } from '../fakes/jgrants-server.ts';
import { syncEnv } from './fixture.ts';

function runCli(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/src/cli.ts', 'sync', 'jgrants'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => {
    err += String(c);
  });
  child.stdout.resume();
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null }));
  return { child, exit, stderr: () => err };
}

test('a sync killed with SIGKILL halfway resumes where it stopped', async (t) => {
  const dataDir = tempDir(t);
  const records = Array.from({ length: 12 }, (_, i) =>
    jgrantsRecord(`a0W0000000000${String(i).padStart(2, '0')}BBB`, `地域振興補助金その${i + 1}`, { target_area_search: '長野県' }),
  );
  const fake = await startJgrantsFake({ records, detailDelayMs: 120 });
  t.after(() => fake.close());
  const env = syncEnv(dataDir, { JGRANTS_API_BASE: fake.base, JGRANTS_KEYWORDS: '補助金', JGRANTS_ACCEPTANCE: '1' });
  const fetchedFile = path.join(dataDir, 'sources', 'jgrants', 'work', 'fetched.jsonl');
  const lines = () => (existsSync(fetchedFile) ? readFileSync(fetchedFile, 'utf8').split('\n').filter(Boolean).length : 0);

  const first = runCli(env);
  t.after(() => first.child.kill('SIGKILL'));
  while (lines() < 4) {
    if (first.child.exitCode !== null) assert.fail(`the first run ended early: ${first.stderr()}`);
    await delay(20);
  }
  first.child.kill('SIGKILL');
  assert.equal((await first.exit).signal, 'SIGKILL');
  const storedByFirst = readFileSync(fetchedFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).id as string);
  assert.ok(storedByFirst.length >= 4 && storedByFirst.length < 12, `killed halfway (${storedByFirst.length} stored)`);
  assert.equal(existsSync(path.join(dataDir, 'sources', 'jgrants', 'current')), false, 'nothing published by the killed run');
  const requestsBefore = fake.requests.length;

  const second = runCli(env);
  const { code } = await second.exit;
  assert.equal(code, 0, second.stderr());
  assert.match(second.stderr(), /resuming the sync started/);
  const secondRequests = fake.requests.slice(requestsBefore);
  assert.equal(secondRequests.filter((r) => r.startsWith('/exp/v1/public/subsidies?')).length, 0, 'the finished list was not asked again');
  const details = secondRequests.filter((r) => r.includes('/subsidies/id/')).map((r) => decodeURIComponent(r.split('/').pop()!));
  for (const id of storedByFirst) assert.ok(!details.includes(id), `${id} was not fetched again`);
  assert.equal(details.length, 12 - storedByFirst.length);

  const report = JSON.parse(readFileSync(path.join(dataDir, 'sources', 'jgrants', 'last-report.json'), 'utf8'));
  assert.equal(report.status, 'published');
  assert.equal(report.counts.new, 12);
  // Off a terminal: plain progress lines, no carriage-return redraws.
  assert.match(second.stderr(), /^jgrants details: \d+\/12 \(\d+%\)$/m);
  assert.ok(!second.stderr().includes('\r'));
});
