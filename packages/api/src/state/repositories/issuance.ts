// Checkout issuance: one key per subscription, whichever of the webhook and
// the from-checkout call comes first. A key issued by the webhook waits here
// encrypted (AES-256-GCM, never in plaintext) for a single reveal.
import { columns, first, now, num, placeholders, strOrNull, type SqlDatabase } from '../sql.ts';

export interface CheckoutIssuance {
  subscriptionId: string;
  customerId: string | null;
  keyId: number;
  /** Encrypted plaintext of a key issued by a webhook, for a single reveal via from-checkout; null once revealed. */
  sealedKey: string | null;
  /** Set once from-checkout revealed (or issued) the key: later calls answer 409. */
  revealedAt: string | null;
}

const ISSUANCE = columns<CheckoutIssuance>({
  subscriptionId: ['subscription_id', String],
  customerId: ['customer_id', strOrNull],
  keyId: ['key_id', num],
  sealedKey: ['sealed_key', strOrNull],
  revealedAt: ['revealed_at', strOrNull],
});

export type IssuanceRepository = ReturnType<typeof issuanceRepository>;

export function issuanceRepository(db: SqlDatabase) {
  return {
    async find(subscriptionId: string): Promise<CheckoutIssuance | null> {
      return first(await db.all(`SELECT ${ISSUANCE.list} FROM checkout_issuance WHERE subscription_id = ?`, [subscriptionId]), ISSUANCE.read);
    },

    /** Create the issuance row; false when one already exists for the subscription (another path won). */
    async create(issuance: CheckoutIssuance): Promise<boolean> {
      const rows = await db.all(
        `INSERT INTO checkout_issuance (${ISSUANCE.list}, created_at)
         VALUES (${placeholders(ISSUANCE.fields.length + 1)}) ON CONFLICT (subscription_id) DO NOTHING RETURNING subscription_id`,
        [...ISSUANCE.values(issuance), now()],
      );
      return rows.length === 1;
    },

    /**
     * Erase sealed keys created before `before` that were never picked up:
     * a one-time secret is not kept at rest for ever. Returns how many.
     */
    expireSealed(before: string): Promise<number> {
      return db.run('UPDATE checkout_issuance SET sealed_key = NULL WHERE sealed_key IS NOT NULL AND created_at < ?', [before]);
    },

    /** Erase the sealed key of a subscription (it ended: its key must never be revealed). */
    async dropSealed(subscriptionId: string): Promise<void> {
      await db.run('UPDATE checkout_issuance SET sealed_key = NULL WHERE subscription_id = ?', [subscriptionId]);
    },

    /** Atomically mark revealed and drop the sealed key; returns the sealed key if this call did it, else null. */
    reveal(subscriptionId: string): Promise<{ sealedKey: string | null } | null> {
      return db.tx(async (q) => {
        const rows = await q.all<{ sealed_key: unknown }>(
          `SELECT sealed_key FROM checkout_issuance WHERE subscription_id = ? AND revealed_at IS NULL${db.forUpdate}`,
          [subscriptionId],
        );
        if (!rows.length) return null;
        const changed = await q.run('UPDATE checkout_issuance SET revealed_at = ?, sealed_key = NULL WHERE subscription_id = ? AND revealed_at IS NULL', [
          now(),
          subscriptionId,
        ]);
        return changed === 1 ? { sealedKey: strOrNull(rows[0].sealed_key) } : null;
      });
    },
  };
}
