// Feedback: rows get increasing ids.
import assert from 'node:assert/strict';
import type { StoreFactory } from '../stores.ts';
import { contractTest } from './fixtures.ts';

export function feedbackContract(factory: StoreFactory): void {
  contractTest(factory, 'feedback rows get increasing ids', async (t) => {
    const { store } = await factory.open(t);
    const base = { rating: 5, endpoint: '/v1/ping', requestId: 'r1', keyHash: null, customerId: null, tier: null, addressHash: 'abc' };
    const a = await store.feedback.insert({ message: 'one', ...base });
    const b = await store.feedback.insert({ message: 'two', ...base, rating: null });
    assert.ok(Number.isInteger(a) && b > a);
  });
}
