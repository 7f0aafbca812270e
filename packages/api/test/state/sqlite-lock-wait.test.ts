// The SQLite state store waits for another process's lock on the file on a
// timer, not by sleeping on the thread (state/sqlite.ts, withLockWait;
// decision 0429): while another connection holds the write lock, the event
// loop keeps turning, and the transaction commits once the lock is released.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LOCK_WAIT_MS, SqliteDriver } from '../../src/state/sqlite.ts';

/** A store with a table t, and another connection (another process, as far as the file lock goes) holding its write lock. */
async function storeWithLockHeldElsewhere(t: TestContext): Promise<{ driver: SqliteDriver; other: DatabaseSync }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpsp-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'state.sqlite');
  const driver = new SqliteDriver(file);
  t.after(() => driver.close());
  await driver.run('CREATE TABLE t (x INTEGER)');
  const other = new DatabaseSync(file);
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  return { driver, other };
}

test("a transaction waits for another connection's write lock without holding the event loop", async (t) => {
  const { driver, other } = await storeWithLockHeldElsewhere(t);
  other.exec('INSERT INTO t VALUES (1)');

  let committed = false;
  const tx = driver.tx(async (q) => q.run('INSERT INTO t VALUES (2)')).then(() => (committed = true));
  // The loop turns while the transaction waits: timers fire, longest gap small.
  let turns = 0;
  let longest = 0;
  let last = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (++turns < 20) setTimeout(tick, 2);
      else resolve();
    };
    setTimeout(tick, 2);
  });
  assert.equal(committed, false, 'the transaction waited for the lock');
  assert.equal(turns, 20);
  // Not a timing threshold: a wait on the thread (SQLite's busy_timeout) holds the loop for the whole
  // LOCK_WAIT_MS and then fails the transaction; on a timer the loop turns and the transaction lives on.
  assert.ok(longest < LOCK_WAIT_MS, `the loop turned while waiting (longest gap ${longest.toFixed(1)} ms)`);

  other.exec('COMMIT');
  await tx;
  assert.equal(committed, true);
  assert.deepEqual(
    (await driver.all<{ x: number }>('SELECT x FROM t ORDER BY x')).map((r) => r.x),
    [1, 2],
  );
});

test('a statement outside a transaction waits for the lock too, and runs once it is released', async (t) => {
  const { driver, other } = await storeWithLockHeldElsewhere(t);
  const write = driver.run('INSERT INTO t VALUES (3)');
  let turned = false;
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      turned = true;
      resolve();
    }, 20),
  );
  assert.equal(turned, true);
  other.exec('COMMIT');
  assert.equal(await write, 1);
});
