// Payment-provider webhooks: each provider event id is processed once (a
// claim row per event), and failed payments are recorded for follow-up.
import { now, type SqlDatabase } from '../sql.ts';

export type WebhooksRepository = ReturnType<typeof webhooksRepository>;

export function webhooksRepository(db: SqlDatabase) {
  return {
    /** True when this call claimed the event (first time seen); false for a replay. */
    async claim(eventId: string, type: string): Promise<boolean> {
      const rows = await db.all(
        'INSERT INTO webhook_events (event_id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
        [eventId, type, now()],
      );
      return rows.length === 1;
    },

    /** Undo a claim whose processing failed, so the provider's retry processes the event again. */
    async release(eventId: string): Promise<void> {
      await db.run('DELETE FROM webhook_events WHERE event_id = ?', [eventId]);
    },

    async recordPaymentFailure(customerId: string | null, subscriptionId: string | null, invoiceId: string | null): Promise<void> {
      await db.run('INSERT INTO payment_failures (customer_id, subscription_id, invoice_id, created_at) VALUES (?, ?, ?, ?)', [
        customerId,
        subscriptionId,
        invoiceId,
        now(),
      ]);
    },
  };
}
