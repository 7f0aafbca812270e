// Every billing-portal session the service opened: which customer, from which
// address (its hash under that day's salt, never the address), with which key
// (its visible prefix) when one was presented, and when. The portal is
// keyless by contract; this record is what an operator reads after a
// customer reports a portal they did not open.
import { columns, now, num, strOrNull, type SqlDatabase } from '../sql.ts';

export interface PortalSession {
  id: number;
  customerId: string;
  addressHash: string | null;
  keyPrefix: string | null;
  createdAt: string;
}

const SESSION = columns<PortalSession>({
  id: ['id', num],
  customerId: ['customer_id', String],
  addressHash: ['address_hash', strOrNull],
  keyPrefix: ['key_prefix', strOrNull],
  createdAt: ['created_at', String],
});

export type PortalSessionsRepository = ReturnType<typeof portalSessionsRepository>;

export function portalSessionsRepository(db: SqlDatabase) {
  return {
    async record(input: { customerId: string; addressHash: string | null; keyPrefix: string | null }): Promise<PortalSession> {
      const rows = await db.all(
        `INSERT INTO portal_sessions (customer_id, address_hash, key_prefix, created_at) VALUES (?, ?, ?, ?) RETURNING ${SESSION.list}`,
        [input.customerId, input.addressHash, input.keyPrefix, now()],
      );
      return SESSION.read(rows[0]);
    },

    /** A customer's sessions, newest first. */
    async listForCustomer(customerId: string, limit = 100): Promise<PortalSession[]> {
      const rows = await db.all(`SELECT ${SESSION.list} FROM portal_sessions WHERE customer_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, [
        customerId,
        limit,
      ]);
      return rows.map(SESSION.read);
    },
  };
}
