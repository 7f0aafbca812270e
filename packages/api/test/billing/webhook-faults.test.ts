// Webhook faults (issue 11, finding 3): an ended subscription never gets a
// key again, whatever arrives after its end and in whatever order; the claim
// of an event and its effect commit together; a signature from the future is
// refused; the safety net checks the subscription's state before issuing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { body } from '../helper.ts';
import { billingApp, deliver, failInTransaction, fromCheckout, paidCheckout } from './helpers.ts';

const keysOf = async (app: Awaited<ReturnType<typeof billingApp>>['app'], subscriptionId: string) =>
  (await app.state.keys.list()).filter((k) => k.subscriptionId === subscriptionId);

const paidInvoice = (subscriptionId: string, customerId: string) => ({
  id: `in_${subscriptionId}`,
  object: 'invoice',
  customer: customerId,
  status: 'paid',
  parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
});

test('deleted before created: neither created, invoice.paid nor from-checkout issues a key afterwards', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription, customer } = await paidCheckout(app, fake);
  const gone = await deliver(app, fake, 'customer.subscription.deleted', { ...subscription, status: 'canceled' });
  assert.equal(gone.res.statusCode, 200);
  assert.equal((await deliver(app, fake, 'customer.subscription.created', subscription)).res.statusCode, 200);
  assert.equal((await deliver(app, fake, 'invoice.paid', paidInvoice(subscription.id, customer.id))).res.statusCode, 200);
  assert.equal((await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'active' })).res.statusCode, 200);
  const res = await fromCheckout(app, sessionId);
  assert.equal(res.statusCode, 409);
  assert.match(body(res).detail, /ended/);
  assert.deepEqual(await keysOf(app, subscription.id), [], 'no key was ever issued');
});

test('created, deleted, then invoice.paid and created again (new event ids): the one key stays revoked', async (t) => {
  const { app, fake } = await billingApp(t);
  const { sessionId, subscription, customer } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.equal((await keysOf(app, subscription.id))[0].status, 'active');
  await deliver(app, fake, 'customer.subscription.deleted', { ...subscription, status: 'canceled' });
  await deliver(app, fake, 'invoice.paid', paidInvoice(subscription.id, customer.id));
  await deliver(app, fake, 'customer.subscription.created', subscription);
  const keys = await keysOf(app, subscription.id);
  assert.equal(keys.length, 1);
  assert.equal(keys[0].status, 'revoked');
  // The sealed copy of the webhook's key is erased at the end: from-checkout never reveals a dead key.
  assert.equal((await app.state.issuance.find(subscription.id))?.sealedKey, null);
  assert.equal((await fromCheckout(app, sessionId)).statusCode, 409);
});

test('invoice.paid issues only while the provider reports the subscription live', async (t) => {
  const { app, fake } = await billingApp(t);
  const customer = fake.createCustomer();
  const live = fake.createSubscription(customer.id, 'price_test_metered');
  const cancelled = fake.createSubscription(customer.id, 'price_test_metered');
  cancelled.status = 'canceled';
  await deliver(app, fake, 'invoice.paid', paidInvoice(cancelled.id, customer.id));
  await deliver(app, fake, 'invoice.paid', paidInvoice('sub_unknown_to_provider', customer.id));
  assert.deepEqual(await keysOf(app, cancelled.id), []);
  assert.deepEqual(await keysOf(app, 'sub_unknown_to_provider'), []);
  await deliver(app, fake, 'invoice.paid', paidInvoice(live.id, customer.id));
  assert.equal((await keysOf(app, live.id)).length, 1);
  // A provider outage while checking: 500, nothing claimed, the retry issues.
  const other = fake.createSubscription(customer.id, 'price_test_metered');
  fake.failNext(1, { status: 500, pathPrefix: '/v1/subscriptions' });
  const failed = await deliver(app, fake, 'invoice.paid', paidInvoice(other.id, customer.id), { id: 'evt_paid_retry' });
  assert.equal(failed.res.statusCode, 500);
  await deliver(app, fake, 'invoice.paid', paidInvoice(other.id, customer.id), { id: 'evt_paid_retry' });
  assert.equal((await keysOf(app, other.id)).length, 1);
});

test('a failure after the claim leaves neither the claim nor a key: the retry issues exactly one', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  // The key row is written, then the issuance row fails (a crash at the worst moment).
  failInTransaction(app, 'issuance', 'create');
  const failed = await deliver(app, fake, 'customer.subscription.created', subscription, { id: 'evt_crash' });
  assert.equal(failed.res.statusCode, 500);
  assert.deepEqual(await keysOf(app, subscription.id), [], 'the key written before the failure was rolled back with the claim');
  const retried = await deliver(app, fake, 'customer.subscription.created', subscription, { id: 'evt_crash' });
  assert.equal(retried.res.statusCode, 200);
  const keys = await keysOf(app, subscription.id);
  assert.equal(keys.length, 1);
  assert.equal(keys[0].status, 'active');
  // A replay after success does nothing.
  await deliver(app, fake, 'customer.subscription.created', subscription, { id: 'evt_crash' });
  assert.equal((await keysOf(app, subscription.id)).length, 1);
});

test('a signature timestamp beyond the tolerance in the future answers 400 and changes nothing', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  const future = await deliver(app, fake, 'customer.subscription.created', subscription, { timestamp: Math.floor(Date.now() / 1000) + 3600 });
  assert.equal(future.res.statusCode, 400);
  assert.match(body(future.res).detail, /future/);
  assert.deepEqual(await keysOf(app, subscription.id), []);
  // A clock a minute ahead is within the tolerance.
  const skewed = await deliver(app, fake, 'customer.subscription.created', subscription, { timestamp: Math.floor(Date.now() / 1000) + 60 });
  assert.equal(skewed.res.statusCode, 200);
  assert.equal((await keysOf(app, subscription.id)).length, 1);
});

test('subscription.updated to canceled leaves a tombstone: a late created issues nothing', async (t) => {
  const { app, fake } = await billingApp(t);
  const { subscription } = await paidCheckout(app, fake);
  await deliver(app, fake, 'customer.subscription.updated', { ...subscription, status: 'canceled' });
  await deliver(app, fake, 'customer.subscription.created', subscription);
  assert.deepEqual(await keysOf(app, subscription.id), []);
  assert.equal(await app.state.subscriptions.isEnded(subscription.id), true);
});
