// Feedback messages. The sender is known only by hashes (key hash, HMAC of
// the address) and the customer id of a key; never a raw key or address.
import { now, num, type SqlDatabase } from '../sql.ts';
import type { Tier } from './keys.ts';

export interface FeedbackInput {
  message: string;
  rating: number | null;
  endpoint: string | null;
  requestId: string | null;
  keyHash: string | null;
  customerId: string | null;
  tier: Tier | null;
  addressHash: string | null;
}

export type FeedbackRepository = ReturnType<typeof feedbackRepository>;

export function feedbackRepository(db: SqlDatabase) {
  return {
    /** Store one message; returns its id. */
    async insert(input: FeedbackInput): Promise<number> {
      const rows = await db.all<{ id: unknown }>(
        `INSERT INTO feedback (message, rating, endpoint, request_id, key_hash, customer_id, tier, address_hash, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [input.message, input.rating, input.endpoint, input.requestId, input.keyHash, input.customerId, input.tier, input.addressHash, now()],
      );
      return num(rows[0].id);
    },
  };
}
