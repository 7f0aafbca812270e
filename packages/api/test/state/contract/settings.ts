// Settings: created once, the first writer wins across handles.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function settingsContract(factory: StoreFactory): void {
  contractTest(factory, 'a setting is created once; the first writer wins across handles', async (t) => {
    const { store, reopen } = await factory.open(t);
    const other = await reopen();
    const values = await Promise.all([store.settings.getOrCreate('salt', () => 'first'), other.settings.getOrCreate('salt', () => 'second')]);
    assert.equal(values[0], values[1]);
    assert.equal(await store.settings.getOrCreate('salt', () => 'third'), values[0]);
  });
}
