// A customer's billing history as last fetched from the payment provider,
// cached to spare the provider's API; the payload is opaque JSON text.
import { now, type SqlDatabase } from '../sql.ts';

export type BillingCacheRepository = ReturnType<typeof billingCacheRepository>;

export function billingCacheRepository(db: SqlDatabase) {
  return {
    async get(customerId: string): Promise<{ payload: string; cachedAt: string } | null> {
      const rows = await db.all('SELECT payload, cached_at FROM billing_cache WHERE customer_id = ?', [customerId]);
      return rows.length ? { payload: String(rows[0].payload), cachedAt: String(rows[0].cached_at) } : null;
    },

    /** Replace the customer's cached payload; returns the time it was cached. */
    async put(customerId: string, payload: string): Promise<string> {
      const cachedAt = now();
      await db.run(
        `INSERT INTO billing_cache (customer_id, payload, cached_at) VALUES (?, ?, ?)
         ON CONFLICT (customer_id) DO UPDATE SET payload = excluded.payload, cached_at = excluded.cached_at`,
        [customerId, payload, cachedAt],
      );
      return cachedAt;
    },
  };
}
