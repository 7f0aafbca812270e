// Device codes: create, find, patch; a transition happens once across handles.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function deviceCodesContract(factory: StoreFactory): void {
  contractTest(factory, 'device codes: create, find, patch, and a transition happens once', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const record = {
      deviceCodeHash: 'dch',
      userCode: 'ABCD-EFGH',
      clientId: 'cli',
      scope: 'api:read',
      status: 'pending' as const,
      keyId: null,
      sealedKey: null,
      interval: 5,
      expiresAt: '2099-01-01T00:00:00.000Z',
      lastPolledAt: null,
    };
    await store.deviceCodes.create(record);
    assert.deepEqual(await store.deviceCodes.findByHash('dch'), record);
    assert.deepEqual(await store.deviceCodes.findByUserCode('ABCD-EFGH'), record);
    assert.equal(await store.deviceCodes.findByUserCode('ZZZZ-ZZZZ'), null);
    await store.deviceCodes.update('dch', { lastPolledAt: '2025-01-01T00:00:00.000Z', interval: 10 });
    const patched = await store.deviceCodes.findByHash('dch');
    assert.equal(patched?.interval, 10);
    assert.equal(patched?.lastPolledAt, '2025-01-01T00:00:00.000Z');
    assert.equal(await store.deviceCodes.transition('dch', 'pending', 'approved', { keyId: 7, sealedKey: 's' }), true);
    assert.equal(await store.deviceCodes.transition('dch', 'pending', 'denied'), false);
    const both = await Promise.all([
      store.deviceCodes.transition('dch', 'approved', 'consumed', { sealedKey: null }),
      other.deviceCodes.transition('dch', 'approved', 'consumed', { sealedKey: null }),
    ]);
    assert.deepEqual(both.sort(), [false, true]);
    const done = await store.deviceCodes.findByHash('dch');
    assert.equal(done?.status, 'consumed');
    assert.equal(done?.keyId, 7);
    assert.equal(done?.sealedKey, null);
  });
}
