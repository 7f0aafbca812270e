// Customer webhook endpoints and their delivery outbox (endpoints and
// deliveries are written together: a failed attempt counts against its
// endpoint and may disable it, in one transaction).
//
// A delivery has a stable id (the receiver's de-duplication key) and a
// `source` naming what caused it (a change event, a saved-search match, a
// test), unique per endpoint, so a fan-out that runs twice queues nothing
// twice. Workers claim due deliveries for a while (`claimed_until`, `FOR
// UPDATE SKIP LOCKED` on PostgreSQL), so two workers never attempt the same
// delivery at the same time, and a crashed worker's claims expire. Claims
// are fair: one attempt in flight per endpoint, keys served in turn (`claim`).
import { randomBytes } from 'node:crypto';
import { columns, first, json, num, numOrNull, now, placeholders, strOrNull, type Queryer, type SqlDatabase } from '../sql.ts';

export interface WebhookEndpoint {
  id: string;
  keyId: number;
  url: string;
  events: string[];
  description: string | null;
  /** The signing secret, sealed (AES-256-GCM) by the caller. */
  sealedSecret: string;
  status: 'active' | 'disabled';
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: string;
  disabledAt: string | null;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  source: string;
  eventType: string;
  /** The JSON body sent, exactly (its signature is computed over it). */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const ENDPOINT = columns<WebhookEndpoint>({
  id: ['id', String],
  keyId: ['key_id', num],
  url: ['url', String],
  events: ['events', json],
  description: ['description', strOrNull],
  sealedSecret: ['sealed_secret', String],
  status: ['status', (v) => v as WebhookEndpoint['status']],
  disabledReason: ['disabled_reason', strOrNull],
  consecutiveFailures: ['consecutive_failures', num],
  createdAt: ['created_at', String],
  disabledAt: ['disabled_at', strOrNull],
});

const DELIVERY = columns<WebhookDelivery>({
  id: ['id', String],
  endpointId: ['endpoint_id', String],
  source: ['source', String],
  eventType: ['event_type', String],
  payload: ['payload', String],
  status: ['status', (v) => v as WebhookDelivery['status']],
  attempts: ['attempts', num],
  nextAttemptAt: ['next_attempt_at', String],
  lastStatus: ['last_status', numOrNull],
  lastError: ['last_error', strOrNull],
  createdAt: ['created_at', String],
  deliveredAt: ['delivered_at', strOrNull],
});

export const newEndpointId = (): string => `we_${randomBytes(12).toString('base64url')}`;
export const newDeliveryId = (): string => `dlv_${randomBytes(16).toString('base64url')}`;

/** What a fan-out queues: the payload is built from the delivery id by the caller. */
export interface QueuedDelivery {
  endpointId: string;
  source: string;
  eventType: string;
  payload: (deliveryId: string) => string;
}

/** Queue deliveries inside the caller's transaction; an (endpoint, source) pair already queued is skipped. */
export async function queueDeliveries(q: Queryer, deliveries: readonly QueuedDelivery[], at = now()): Promise<number> {
  let queued = 0;
  for (const d of deliveries) {
    const id = newDeliveryId();
    queued += await q.run(
      `INSERT INTO webhook_deliveries (id, endpoint_id, source, event_type, payload, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (endpoint_id, source) DO NOTHING`,
      [id, d.endpointId, d.source, d.eventType, d.payload(id), at, at],
    );
  }
  return queued;
}

/** Active endpoints listening to any of `eventTypes`, read inside the caller's transaction. */
export async function activeEndpoints(q: Queryer): Promise<Pick<WebhookEndpoint, 'id' | 'keyId' | 'events'>[]> {
  return (await q.all("SELECT id, key_id, events FROM webhook_endpoints WHERE status = 'active' ORDER BY id")).map((r) => ({
    id: String(r.id),
    keyId: num(r.key_id),
    events: json<string[]>(r.events),
  }));
}

export type WebhookEndpointsRepository = ReturnType<typeof webhookEndpointsRepository>;

export function webhookEndpointsRepository(db: SqlDatabase) {
  return {
    /** A new endpoint of a key; null when the key already has `maxPerKey`. */
    async create(
      input: Pick<WebhookEndpoint, 'keyId' | 'url' | 'events' | 'description' | 'sealedSecret'> & { id?: string },
      maxPerKey = Infinity,
    ): Promise<WebhookEndpoint | null> {
      const endpoint: WebhookEndpoint = {
        id: input.id ?? newEndpointId(),
        keyId: input.keyId,
        url: input.url,
        events: input.events,
        description: input.description,
        sealedSecret: input.sealedSecret,
        status: 'active',
        disabledReason: null,
        consecutiveFailures: 0,
        createdAt: now(),
        disabledAt: null,
      };
      return db.tx(async (q) => {
        const [row] = await q.all('SELECT count(*) AS n FROM webhook_endpoints WHERE key_id = ?', [input.keyId]);
        if (num(row.n) >= maxPerKey) return null;
        await q.run(
          `INSERT INTO webhook_endpoints (${ENDPOINT.list}) VALUES (${placeholders(ENDPOINT.fields.length)})`,
          ENDPOINT.values({ ...endpoint, events: JSON.stringify(endpoint.events) as never }),
        );
        return endpoint;
      });
    },

    /** One endpoint; with `keyId`, only when that key owns it. */
    async get(id: string, keyId?: number): Promise<WebhookEndpoint | null> {
      const owner = keyId === undefined ? '' : ' AND key_id = ?';
      return first(
        await db.all(`SELECT ${ENDPOINT.list} FROM webhook_endpoints WHERE id = ?${owner}`, keyId === undefined ? [id] : [id, keyId]),
        ENDPOINT.read,
      );
    },

    async listForKey(keyId: number): Promise<WebhookEndpoint[]> {
      return (await db.all(`SELECT ${ENDPOINT.list} FROM webhook_endpoints WHERE key_id = ? ORDER BY created_at, id`, [keyId])).map(ENDPOINT.read);
    },

    /** Delete an endpoint of a key (its deliveries go with it). */
    async delete(id: string, keyId: number): Promise<boolean> {
      return (await db.run('DELETE FROM webhook_endpoints WHERE id = ? AND key_id = ?', [id, keyId])) === 1;
    },

    /** The outbox for /metrics: deliveries waiting (on active endpoints), given up, and endpoints disabled. */
    async stats(): Promise<{ pending: number; failed: number; disabledEndpoints: number }> {
      const [row] = await db.all(
        `SELECT
           (SELECT COUNT(*) FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.status = 'pending' AND e.status = 'active') AS pending,
           (SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'failed') AS failed,
           (SELECT COUNT(*) FROM webhook_endpoints WHERE status = 'disabled') AS disabled`,
      );
      return { pending: num(row?.pending ?? 0), failed: num(row?.failed ?? 0), disabledEndpoints: num(row?.disabled ?? 0) };
    },

    /** Queue deliveries outside any other transaction. */
    async queue(deliveries: readonly QueuedDelivery[]): Promise<number> {
      return db.tx((q) => queueDeliveries(q, deliveries));
    },

    /** The newest deliveries of an endpoint, newest first. */
    async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
      return (
        await db.all(`SELECT ${DELIVERY.list} FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, [endpointId, limit])
      ).map(DELIVERY.read);
    },

    async delivery(id: string): Promise<WebhookDelivery | null> {
      return first(await db.all(`SELECT ${DELIVERY.list} FROM webhook_deliveries WHERE id = ?`, [id]), DELIVERY.read);
    },

    /**
     * Claim up to `limit` due pending deliveries of active endpoints for
     * `holder` until `until`; returns them with their endpoint, in the order
     * to send them. Fair between customers and endpoints (issue 24, M1):
     * - an endpoint with a delivery in flight (claimed, not yet settled, by
     *   any process) gets none: one attempt at a time per endpoint;
     * - round robin between keys: every key's first delivery comes before any
     *   key's second, and a key's deliveries take its endpoints in turn (the
     *   first due of each endpoint, then the second of each, …), oldest due
     *   first at each level. A key that queued a thousand deliveries delays
     *   another key's one by at most one place.
     */
    async claim(holder: string, at: string, until: string, limit: number): Promise<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint }[]> {
      const claimed = await db.tx(async (q) => {
        const ids = (
          await q.all(
            `SELECT d.id FROM webhook_deliveries d JOIN (
               SELECT id, next_attempt_at, ROW_NUMBER() OVER (PARTITION BY key_id ORDER BY in_endpoint, next_attempt_at, id) AS in_key
               FROM (
                 SELECT w.id, w.next_attempt_at, e.key_id,
                        ROW_NUMBER() OVER (PARTITION BY w.endpoint_id ORDER BY w.next_attempt_at, w.id) AS in_endpoint
                 FROM webhook_deliveries w JOIN webhook_endpoints e ON e.id = w.endpoint_id
                 WHERE w.status = 'pending' AND e.status = 'active' AND w.next_attempt_at <= ? AND (w.claimed_until IS NULL OR w.claimed_until < ?)
                   AND NOT EXISTS (
                     SELECT 1 FROM webhook_deliveries busy
                     WHERE busy.endpoint_id = w.endpoint_id AND busy.status = 'pending' AND busy.claimed_until >= ?
                   )
               ) due
             ) fair ON fair.id = d.id
             ORDER BY fair.in_key, fair.next_attempt_at, fair.id LIMIT ?${db.skipLocked && ' FOR UPDATE OF d SKIP LOCKED'}`,
            [at, at, at, limit],
          )
        ).map((r) => String(r.id));
        if (!ids.length) return [];
        await q.run(`UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ? WHERE id IN (${placeholders(ids.length)})`, [holder, until, ...ids]);
        return ids;
      });
      const out: { delivery: WebhookDelivery; endpoint: WebhookEndpoint }[] = [];
      for (const id of claimed) {
        const [row] = await db.all(`SELECT ${DELIVERY.list} FROM webhook_deliveries WHERE id = ?`, [id]);
        if (!row) continue;
        const delivery = DELIVERY.read(row);
        const endpoint = first(await db.all(`SELECT ${ENDPOINT.list} FROM webhook_endpoints WHERE id = ?`, [delivery.endpointId]), ENDPOINT.read);
        if (endpoint) out.push({ delivery, endpoint });
      }
      return out;
    },

    /** Give claimed deliveries back unattempted (the worker stopped or its pass ended first): due again at once, no attempt counted. */
    async release(ids: readonly string[], holder: string): Promise<void> {
      if (!ids.length) return;
      await db.run(`UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ? AND id IN (${placeholders(ids.length)})`, [
        holder,
        ...ids,
      ]);
    },

    /**
     * Queue a `webhook.test` delivery unless the endpoint already has one
     * pending (issue 24, M1: tests cannot flood the outbox); returns its id,
     * or null when one is still pending.
     */
    async queueTest(endpointId: string, source: string, payload: (deliveryId: string) => string): Promise<string | null> {
      return db.tx(async (q) => {
        // The endpoint's row is locked first: two tests at once queue one.
        await q.all(`SELECT id FROM webhook_endpoints WHERE id = ?${db.forUpdate}`, [endpointId]);
        const pending = await q.all(
          "SELECT 1 AS one FROM webhook_deliveries WHERE endpoint_id = ? AND event_type = 'webhook.test' AND status = 'pending' LIMIT 1",
          [endpointId],
        );
        if (pending.length) return null;
        let id: string | null = null;
        await queueDeliveries(q, [
          {
            endpointId,
            source,
            eventType: 'webhook.test',
            payload: (deliveryId) => {
              id = deliveryId;
              return payload(deliveryId);
            },
          },
        ]);
        return id;
      });
    },

    /** A 2xx answer: delivered, and the endpoint's failure streak ends. Only the claim's holder settles it. */
    async markDelivered(id: string, holder: string, status: number, at = now()): Promise<void> {
      await db.tx(async (q) => {
        const [row] = await q.all(`SELECT endpoint_id FROM webhook_deliveries WHERE id = ? AND claimed_by = ?${db.forUpdate}`, [id, holder]);
        if (!row) return;
        await q.run(
          "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = ?, last_error = NULL, delivered_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?",
          [status, at, id],
        );
        await q.run('UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ?', [row.endpoint_id]);
      });
    },

    /**
     * A failed attempt: retried at `retryAt`, or failed for good when null.
     * The endpoint's streak grows; at `disableAfter` consecutive failures the
     * endpoint is disabled with `reason`. Returns whether it was disabled now.
     */
    async markFailed(
      id: string,
      holder: string,
      failure: { status: number | null; error: string; retryAt: string | null },
      disableAfter: number,
      at = now(),
    ): Promise<{ disabled: boolean }> {
      return db.tx(async (q) => {
        const [row] = await q.all(`SELECT endpoint_id FROM webhook_deliveries WHERE id = ? AND claimed_by = ?${db.forUpdate}`, [id, holder]);
        if (!row) return { disabled: false };
        await q.run(
          `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?`,
          [failure.retryAt === null ? 'failed' : 'pending', failure.status, failure.error.slice(0, 300), failure.retryAt ?? at, id],
        );
        const [endpoint] = await q.all(
          'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ? RETURNING consecutive_failures, status',
          [row.endpoint_id],
        );
        if (endpoint?.status !== 'active' || num(endpoint.consecutive_failures) < disableAfter) return { disabled: false };
        const reason = `Disabled after ${num(endpoint.consecutive_failures)} consecutive failed delivery attempts; the last: ${failure.error.slice(0, 200)}`;
        await q.run("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, disabled_at = ? WHERE id = ?", [reason, at, row.endpoint_id]);
        return { disabled: true };
      });
    },
  };
}
