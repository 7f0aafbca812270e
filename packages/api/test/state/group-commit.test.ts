// The group commit when the store is unreachable: every caller of the batch
// gets the StateUnavailableError from the one failed transaction, rather than
// one retry per write each waiting for the store again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GroupCommit } from '../../src/state/group-commit.ts';
import { StateUnavailableError } from '../../src/state/sql.ts';

test('a batch that meets an unreachable store fails all its writes at once, without retrying each', async () => {
  let transactions = 0;
  const commit = new GroupCommit(
    async () => {
      transactions++;
      throw new StateUnavailableError(new Error('ECONNREFUSED'));
    },
    { windowMs: 1, maxBatch: 64 },
  );
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => commit.submit(async () => 1)));
  assert.ok(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof StateUnavailableError));
  assert.equal(transactions, 1, 'one attempt for the batch');
});
