// Checkout issuance: one key per subscription, whichever of the webhook and
// the from-checkout call comes first. A key issued by the webhook waits here
// encrypted (AES-256-GCM, never in plaintext) for a single reveal.
import { now, num, strOrNull, type SqlDatabase } from '../sql.ts';

export interface CheckoutIssuance {
  subscriptionId: string;
  customerId: string | null;
  keyId: number;
  /** Encrypted plaintext of a key issued by a webhook, for a single reveal via from-checkout; null once revealed. */
  sealedKey: string | null;
  /** Set once from-checkout revealed (or issued) the key: later calls answer 409. */
  revealedAt: string | null;
}

export type IssuanceRepository = ReturnType<typeof issuanceRepository>;

export function issuanceRepository(db: SqlDatabase) {
  return {
    async find(subscriptionId: string): Promise<CheckoutIssuance | null> {
      const rows = await db.all(
        'SELECT subscription_id, customer_id, key_id, sealed_key, revealed_at FROM checkout_issuance WHERE subscription_id = ?',
        [subscriptionId],
      );
      if (!rows.length) return null;
      const r = rows[0];
      return {
        subscriptionId: String(r.subscription_id),
        customerId: strOrNull(r.customer_id),
        keyId: num(r.key_id),
        sealedKey: strOrNull(r.sealed_key),
        revealedAt: strOrNull(r.revealed_at),
      };
    },

    /** Create the issuance row; false when one already exists for the subscription (another path won). */
    async create(issuance: CheckoutIssuance): Promise<boolean> {
      const rows = await db.all(
        `INSERT INTO checkout_issuance (subscription_id, customer_id, key_id, sealed_key, revealed_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id) DO NOTHING RETURNING subscription_id`,
        [issuance.subscriptionId, issuance.customerId, issuance.keyId, issuance.sealedKey, issuance.revealedAt, now()],
      );
      return rows.length === 1;
    },

    /** Atomically mark revealed and drop the sealed key; returns the sealed key if this call did it, else null. */
    reveal(subscriptionId: string): Promise<{ sealedKey: string | null } | null> {
      return db.tx(async (q) => {
        const rows = await q.all<{ sealed_key: unknown }>(
          `SELECT sealed_key FROM checkout_issuance WHERE subscription_id = ? AND revealed_at IS NULL${db.forUpdate}`,
          [subscriptionId],
        );
        if (!rows.length) return null;
        const changed = await q.run(
          'UPDATE checkout_issuance SET revealed_at = ?, sealed_key = NULL WHERE subscription_id = ? AND revealed_at IS NULL',
          [now(), subscriptionId],
        );
        return changed === 1 ? { sealedKey: strOrNull(rows[0].sealed_key) } : null;
      });
    },
  };
}
