// The store as a whole: versioned migrations, safe when several handles (processes) start at once.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest, paidKey } from './fixtures.ts';

export function lifecycleContract(factory: StoreFactory): void {
  contractTest(factory, 'migrations are versioned, recorded and idempotent across handles', async (t) => {
    const { store, reopen } = await factory.open(t);
    await store.migrate();
    const [a, b] = await Promise.all([reopen(), reopen()]);
    await Promise.all([a.migrate(), b.migrate()]);
    assert.equal(await store.ping(), true);
    const k = await paidKey(a);
    assert.equal((await b.keys.findById(k.id))?.keyHash, k.keyHash);
  });
}
