// Sessions: a live session is found by its id hash until it expires, ends
// once, and expired rows are cleared without touching live ones.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

const T0 = '2025-04-10T00:00:00.000Z';
const session = (idHash: string, expiresAt: string, keyId = 1) => ({ idHash, keyId, createdAt: T0, expiresAt });

export function sessionsContract(factory: StoreFactory): void {
  contractTest(factory, 'sessions: found by id hash until they expire, end once, expired ones are cleared', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const live = session('hash-live', '2025-04-10T08:00:00.000Z', 7);
    await store.sessions.create(live);
    await store.sessions.create(session('hash-old', '2025-04-09T23:59:59.000Z'));

    assert.deepEqual(await other.sessions.findLive('hash-live', T0), live, 'another process sees the session');
    assert.equal(await store.sessions.findLive('hash-live', '2025-04-10T08:00:00.000Z'), null, 'not live at its expiry');
    assert.equal(await store.sessions.findLive('hash-old', T0), null, 'an expired session is never returned');
    assert.equal(await store.sessions.findLive('nope', T0), null);
    await assert.rejects(store.sessions.create(live), 'an id hash is unique');

    assert.equal(await store.sessions.deleteExpired(T0), 1);
    assert.equal((await store.sessions.findLive('hash-live', T0)) !== null, true, 'clearing expired rows keeps live ones');

    const ends = await Promise.all([store.sessions.delete('hash-live'), other.sessions.delete('hash-live')]);
    assert.deepEqual(ends.sort(), [false, true], 'a session ends once');
    assert.equal(await store.sessions.findLive('hash-live', T0), null);
  });
}
