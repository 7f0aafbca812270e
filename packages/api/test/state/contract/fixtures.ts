// Shared pieces of the state contract: how a case is registered for a store,
// and the usage events and keys several repositories' cases start from.
import { test, type TestContext } from 'node:test';
import { randomUUID } from 'node:crypto';
import type { StateStore } from '../../../src/state/store.ts';
import type { UsageEvent } from '../../../src/state/repositories/usage.ts';
import type { StoreFactory } from '../stores.ts';

/** One contract case on `factory`'s store, named `<kind>: <title>`, skipped where that store cannot run. */
export function contractTest(factory: StoreFactory, title: string, fn: (t: TestContext) => Promise<void>): void {
  test(`${factory.kind}: ${title}`, { skip: factory.skip }, fn);
}

/** A billable 3-yen event of key 1 / customer cus_1 in April 2025, with a fresh event id. */
export function usage(over: Partial<UsageEvent> = {}): UsageEvent {
  return {
    eventId: randomUUID(),
    keyId: 1,
    customerId: 'cus_1',
    tier: 'paid',
    method: 'GET',
    route: '/v1/programs/search',
    status: 200,
    billable: true,
    amountYen: 3,
    billingMonth: '2025-04',
    createdAt: '2025-04-10T01:00:00.000Z',
    ...over,
  };
}

export async function paidKey(store: StateStore, n = 1) {
  return store.keys.create({ keyHash: `hash-${n}-${randomUUID()}`, prefix: `am_test${n}`, tier: 'paid', customerId: `cus_${n}`, subscriptionId: `sub_${n}` });
}
