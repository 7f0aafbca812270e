// Browser sessions of the developer portal: the SHA-256 hash of the opaque
// session id (the cookie holds the id, this table only its hash), the key the
// session acts for, and when it expires. An expired row is never returned;
// `deleteExpired` clears them out.
import { columns, first, num, type SqlDatabase } from '../sql.ts';

export interface SessionRecord {
  idHash: string;
  keyId: number;
  createdAt: string;
  expiresAt: string;
}

const SESSION = columns<SessionRecord>({
  idHash: ['id_hash', String],
  keyId: ['key_id', num],
  createdAt: ['created_at', String],
  expiresAt: ['expires_at', String],
});

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

export function sessionsRepository(db: SqlDatabase) {
  return {
    /** A new session; the key's oldest sessions beyond `maxPerKey` end with it (one transaction). */
    async create(record: SessionRecord, maxPerKey = Infinity): Promise<void> {
      await db.tx(async (q) => {
        await q.run(`INSERT INTO sessions (${SESSION.list}) VALUES (?, ?, ?, ?)`, SESSION.values(record));
        if (Number.isFinite(maxPerKey)) {
          await q.run(
            `DELETE FROM sessions WHERE key_id = ? AND id_hash NOT IN (
               SELECT id_hash FROM sessions WHERE key_id = ? ORDER BY created_at DESC, id_hash LIMIT ?)`,
            [record.keyId, record.keyId, maxPerKey],
          );
        }
      });
    },

    /** The session with this id hash, unless it has expired at `at` (ISO UTC). */
    async findLive(idHash: string, at: string): Promise<SessionRecord | null> {
      return first(await db.all(`SELECT ${SESSION.list} FROM sessions WHERE id_hash = ? AND expires_at > ?`, [idHash, at]), SESSION.read);
    },

    /** End one session; true when it existed. */
    async delete(idHash: string): Promise<boolean> {
      return (await db.run('DELETE FROM sessions WHERE id_hash = ?', [idHash])) > 0;
    },

    /** Remove sessions that expired at or before `at`; returns how many. */
    async deleteExpired(at: string): Promise<number> {
      return db.run('DELETE FROM sessions WHERE expires_at <= ?', [at]);
    },
  };
}
