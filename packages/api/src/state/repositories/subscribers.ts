// E-mail subscribers and their outbox. A subscriber is an address (kept
// sealed, only to send to it, and looked up by a keyed hash) and what it
// receives: one saved search's matches, as a daily digest once confirmed.
// Deleting a subscriber (unsubscribe) deletes its address, its queued mail
// and, when the subscription created it, its saved search.
//
// Mail is queued (`queueEmail`) with a stable id (its Message-ID) and claimed
// by one worker at a time, like webhook deliveries.
import { randomBytes } from 'node:crypto';
import { columns, first, num, now, placeholders, strOrNull, type Queryer, type SqlDatabase } from '../sql.ts';

export interface Subscriber {
  id: string;
  emailHash: string;
  sealedEmail: string;
  savedSearchId: string;
  /** The subscription created its saved search (deleted with it). */
  ownsSearch: boolean;
  status: 'pending' | 'confirmed';
  createdAt: string;
  confirmedAt: string | null;
  lastDigestAt: string | null;
  /** The last saved-search match id a digest reported. */
  lastMatchId: number;
}

export interface OutboxEmail {
  id: string;
  subscriberId: string;
  kind: 'confirm' | 'digest';
  subject: string;
  /** JSON {text, html}. */
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const SUBSCRIBER = columns<Subscriber>({
  id: ['id', String],
  emailHash: ['email_hash', String],
  sealedEmail: ['sealed_email', String],
  savedSearchId: ['saved_search_id', String],
  ownsSearch: ['owns_search', (v) => num(v) === 1],
  status: ['status', (v) => v as Subscriber['status']],
  createdAt: ['created_at', String],
  confirmedAt: ['confirmed_at', strOrNull],
  lastDigestAt: ['last_digest_at', strOrNull],
  lastMatchId: ['last_match_id', num],
});

const EMAIL = columns<OutboxEmail>({
  id: ['id', String],
  subscriberId: ['subscriber_id', String],
  kind: ['kind', (v) => v as OutboxEmail['kind']],
  subject: ['subject', String],
  body: ['body', String],
  status: ['status', (v) => v as OutboxEmail['status']],
  attempts: ['attempts', num],
  nextAttemptAt: ['next_attempt_at', String],
  lastError: ['last_error', strOrNull],
  createdAt: ['created_at', String],
  sentAt: ['sent_at', strOrNull],
});

export const newSubscriberId = (): string => `sub_${randomBytes(16).toString('base64url')}`;
export const newEmailId = (): string => `mail_${randomBytes(16).toString('base64url')}`;

/** Queue one message inside the caller's transaction. */
export async function queueEmail(
  q: Queryer,
  mail: { subscriberId: string; kind: OutboxEmail['kind']; subject: string; text: string; html: string },
  at = now(),
): Promise<string> {
  const id = newEmailId();
  await q.run(
    `INSERT INTO email_outbox (id, subscriber_id, kind, subject, body, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
    [id, mail.subscriberId, mail.kind, mail.subject, JSON.stringify({ text: mail.text, html: mail.html }), at, at],
  );
  return id;
}

export type SubscribersRepository = ReturnType<typeof subscribersRepository>;

export function subscribersRepository(db: SqlDatabase) {
  return {
    /**
     * A pending subscription and its confirmation message, in one
     * transaction; `compose` writes the message from the new subscriber's id.
     */
    async create(
      input: Pick<Subscriber, 'emailHash' | 'sealedEmail' | 'savedSearchId' | 'ownsSearch'>,
      compose: (subscriberId: string) => { subject: string; text: string; html: string },
    ): Promise<Subscriber> {
      const subscriber: Subscriber = {
        id: newSubscriberId(),
        ...input,
        status: 'pending',
        createdAt: now(),
        confirmedAt: null,
        lastDigestAt: null,
        lastMatchId: 0,
      };
      await db.tx(async (q) => {
        await q.run(`INSERT INTO subscribers (${SUBSCRIBER.list}) VALUES (${placeholders(SUBSCRIBER.fields.length)})`, SUBSCRIBER.values(subscriber));
        await queueEmail(q, { subscriberId: subscriber.id, kind: 'confirm', ...compose(subscriber.id) });
      });
      return subscriber;
    },

    async get(id: string): Promise<Subscriber | null> {
      return first(await db.all(`SELECT ${SUBSCRIBER.list} FROM subscribers WHERE id = ?`, [id]), SUBSCRIBER.read);
    },

    /** Subscriptions of an address created since `since` (signup throttling). */
    async countSince(emailHash: string, since: string): Promise<number> {
      const [row] = await db.all('SELECT count(*) AS n FROM subscribers WHERE email_hash = ? AND created_at >= ?', [emailHash, since]);
      return num(row.n);
    },

    /** Confirm a pending subscription; its digests start after the matches already recorded. */
    async confirm(id: string, at = now()): Promise<boolean> {
      return db.tx(async (q) => {
        const [sub] = await q.all(`SELECT saved_search_id, status FROM subscribers WHERE id = ?${db.forUpdate}`, [id]);
        if (!sub) return false;
        if (sub.status === 'confirmed') return true;
        const [m] = await q.all('SELECT max(id) AS id FROM saved_search_matches WHERE saved_search_id = ?', [sub.saved_search_id]);
        await q.run("UPDATE subscribers SET status = 'confirmed', confirmed_at = ?, last_match_id = ? WHERE id = ?", [at, m?.id ?? 0, id]);
        return true;
      });
    },

    /** Unsubscribe: the address, its mail and (when it created it) its saved search are deleted. */
    async delete(id: string): Promise<boolean> {
      return db.tx(async (q) => {
        const [sub] = await q.all(`SELECT saved_search_id, owns_search FROM subscribers WHERE id = ?${db.forUpdate}`, [id]);
        if (!sub) return false;
        await q.run('DELETE FROM email_outbox WHERE subscriber_id = ?', [id]);
        await q.run('DELETE FROM subscribers WHERE id = ?', [id]);
        if (num(sub.owns_search) === 1) await q.run('DELETE FROM saved_searches WHERE id = ? AND key_id IS NULL', [sub.saved_search_id]);
        return true;
      });
    },

    /**
     * Delete sign-ups still unconfirmed that were made before `before`: their
     * address, queued mail and own search, as an unsubscribe would (issue 24,
     * L3). Returns how many; at most `limit` a call.
     */
    async purgeUnconfirmed(before: string, limit = 500): Promise<number> {
      return db.tx(async (q) => {
        const rows = await q.all(`SELECT id, saved_search_id, owns_search FROM subscribers WHERE status = 'pending' AND created_at < ? LIMIT ?`, [
          before,
          limit,
        ]);
        if (!rows.length) return 0;
        const ids = rows.map((r) => String(r.id));
        const searches = rows.filter((r) => num(r.owns_search) === 1).map((r) => String(r.saved_search_id));
        await q.run(`DELETE FROM email_outbox WHERE subscriber_id IN (${placeholders(ids.length)})`, ids);
        await q.run(`DELETE FROM subscribers WHERE id IN (${placeholders(ids.length)})`, ids);
        if (searches.length) await q.run(`DELETE FROM saved_searches WHERE key_id IS NULL AND id IN (${placeholders(searches.length)})`, searches);
        return ids.length;
      });
    },

    /** Confirmed subscribers whose last digest is older than `dueBefore` (or who never had one) and who have new matches. */
    async dueForDigest(dueBefore: string, limit: number): Promise<Subscriber[]> {
      const rows = await db.all(
        `SELECT ${SUBSCRIBER.list} FROM subscribers s WHERE s.status = 'confirmed' AND (s.last_digest_at IS NULL OR s.last_digest_at <= ?)
         AND EXISTS (SELECT 1 FROM saved_search_matches m WHERE m.saved_search_id = s.saved_search_id AND m.id > s.last_match_id)
         ORDER BY s.id LIMIT ?`,
        [dueBefore, limit],
      );
      return rows.map(SUBSCRIBER.read);
    },

    /**
     * Queue a digest and move the subscriber past `lastMatchId`, in one
     * transaction, only if it still stands at `fromMatchId` (so a digest is
     * queued once even if two workers composed it).
     */
    async queueDigest(
      subscriberId: string,
      fromMatchId: number,
      lastMatchId: number,
      mail: { subject: string; text: string; html: string },
      at = now(),
    ): Promise<boolean> {
      return db.tx(async (q) => {
        const moved = await q.run('UPDATE subscribers SET last_match_id = ?, last_digest_at = ? WHERE id = ? AND last_match_id = ?', [
          lastMatchId,
          at,
          subscriberId,
          fromMatchId,
        ]);
        if (moved !== 1) return false;
        await queueEmail(q, { subscriberId, kind: 'digest', ...mail }, at);
        return true;
      });
    },

    /** Claim due pending mail for `holder` until `until`, with the subscriber's sealed address. */
    async claimEmails(holder: string, at: string, until: string, limit: number): Promise<{ email: OutboxEmail; sealedEmail: string }[]> {
      const ids = await db.tx(async (q) => {
        const found = (
          await q.all(
            `SELECT id FROM email_outbox WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
           ORDER BY next_attempt_at, id LIMIT ?${db.skipLocked}`,
            [at, at, limit],
          )
        ).map((r) => String(r.id));
        if (found.length)
          await q.run(`UPDATE email_outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (${placeholders(found.length)})`, [holder, until, ...found]);
        return found;
      });
      if (!ids.length) return [];
      const rows = await db.all(
        `SELECT ${EMAIL.fields.map((f) => `o.${EMAIL.column(f)}`).join(', ')}, s.sealed_email FROM email_outbox o JOIN subscribers s ON s.id = o.subscriber_id
         WHERE o.id IN (${placeholders(ids.length)}) ORDER BY o.next_attempt_at, o.id`,
        ids,
      );
      return rows.map((r) => ({ email: EMAIL.read(r), sealedEmail: String(r.sealed_email) }));
    },

    async markEmailSent(id: string, holder: string, at = now()): Promise<void> {
      await db.run(
        "UPDATE email_outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
        [at, id, holder],
      );
    },

    /** A failed send: retried at `retryAt`, or failed for good when null. */
    async markEmailFailed(id: string, holder: string, error: string, retryAt: string | null, at = now()): Promise<void> {
      await db.run(
        'UPDATE email_outbox SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?',
        [retryAt === null ? 'failed' : 'pending', error.slice(0, 300), retryAt ?? at, id, holder],
      );
    },

    async emails(subscriberId: string): Promise<OutboxEmail[]> {
      return (await db.all(`SELECT ${EMAIL.list} FROM email_outbox WHERE subscriber_id = ? ORDER BY created_at, id`, [subscriberId])).map(EMAIL.read);
    },
  };
}
