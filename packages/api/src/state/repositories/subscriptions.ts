// Tombstones of ended subscriptions. A subscription that Stripe ended
// (deleted, or reported canceled) never comes back under the same id, so once
// it is here no event (created, invoice.paid, replayed or late) and no
// from-checkout call issues a key for it again.
import { now, type SqlDatabase } from '../sql.ts';

export type SubscriptionsRepository = ReturnType<typeof subscriptionsRepository>;

export function subscriptionsRepository(db: SqlDatabase) {
  return {
    /** Record the end of a subscription (the first record wins). */
    async end(subscriptionId: string, customerId: string | null, status: string, eventId: string | null): Promise<void> {
      await db.run(
        `INSERT INTO ended_subscriptions (subscription_id, customer_id, status, event_id, ended_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (subscription_id) DO NOTHING`,
        [subscriptionId, customerId, status, eventId, now()],
      );
    },

    async isEnded(subscriptionId: string): Promise<boolean> {
      return (await db.all('SELECT 1 AS ended FROM ended_subscriptions WHERE subscription_id = ?', [subscriptionId])).length > 0;
    },
  };
}
