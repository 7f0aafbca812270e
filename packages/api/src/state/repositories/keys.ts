// API keys: stored only as the SHA-256 hex of the key (`keyHash`) with a
// short visible prefix; the plaintext never reaches the store.
// Every change to a key (created, revoked, cap, subscription status) bumps the
// 'keys' generation in its own transaction and tells `changed` (the store
// calls its listeners once that transaction has committed): the key caches of
// this process drop their entries at once, those of other processes when
// they next poll the generation (state/key-cache.ts).
import { columns, first, now, num, numOrNull, strOrNull, type Queryer, type SqlDatabase } from '../sql.ts';

export type Tier = 'free' | 'paid';
export type KeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  id: number;
  keyHash: string;
  /** Visible prefix, e.g. `am_AbC123` — safe to show and log. */
  prefix: string;
  tier: Tier;
  status: KeyStatus;
  customerId: string | null;
  subscriptionId: string | null;
  /** Monthly spend cap in yen; null = uncapped. */
  monthlyCapYen: number | null;
  createdAt: string;
  revokedAt: string | null;
  /** Last status the payment provider reported for the subscription (e.g. active, past_due). */
  subscriptionStatus: string | null;
}

export interface NewApiKey {
  keyHash: string;
  prefix: string;
  tier: Tier;
  customerId?: string | null;
  subscriptionId?: string | null;
}

const KEY = columns<ApiKeyRecord>({
  id: ['id', num],
  keyHash: ['key_hash', String],
  prefix: ['prefix', String],
  tier: ['tier', (v) => v as Tier],
  status: ['status', (v) => v as KeyStatus],
  customerId: ['customer_id', strOrNull],
  subscriptionId: ['subscription_id', strOrNull],
  monthlyCapYen: ['monthly_cap_yen', numOrNull],
  createdAt: ['created_at', String],
  revokedAt: ['revoked_at', strOrNull],
  subscriptionStatus: ['subscription_status', strOrNull],
});

export type KeysRepository = ReturnType<typeof keysRepository>;

/** The generation of the keys table: it changes whenever any key changes. */
export async function keysGeneration(db: Queryer): Promise<number> {
  const rows = await db.all<{ value: unknown }>("SELECT value FROM state_generations WHERE name = 'keys'");
  return rows.length ? num(rows[0].value) : 0;
}

/**
 * @param changed called after a change to a key was written (the store defers
 *   it to the commit of an enclosing transaction).
 */
export function keysRepository(db: SqlDatabase, changed: () => void = () => undefined) {
  /** Run a change and bump the generation in one transaction; `changed` when it touched a row. */
  async function change<T>(write: (q: Queryer) => Promise<T>, touched: (result: T) => boolean): Promise<T> {
    const result = await db.tx(async (q) => {
      const r = await write(q);
      if (touched(r)) await q.run("UPDATE state_generations SET value = value + 1 WHERE name = 'keys'");
      return r;
    });
    if (touched(result)) changed();
    return result;
  }
  const revokeWhere = (column: 'id' | 'prefix' | 'subscription_id', value: unknown): Promise<number> =>
    change(
      (q) => q.run(`UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE ${column} = ? AND status = 'active'`, [now(), value]),
      (n) => n > 0,
    );

  return {
    async create(input: NewApiKey): Promise<ApiKeyRecord> {
      // A new key bumps the generation too: no cache keeps "unknown" for it.
      const rows = await change(
        (q) =>
          q.all(
            `INSERT INTO api_keys (key_hash, prefix, tier, status, customer_id, subscription_id, created_at)
         VALUES (?, ?, ?, 'active', ?, ?, ?) RETURNING ${KEY.list}`,
            [input.keyHash, input.prefix, input.tier, input.customerId ?? null, input.subscriptionId ?? null, now()],
          ),
        () => true,
      );
      return KEY.read(rows[0]);
    },

    /** The current generation of the keys table (state/key-cache.ts polls it). */
    generation: (): Promise<number> => keysGeneration(db),

    async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
      return first(await db.all(`SELECT ${KEY.list} FROM api_keys WHERE key_hash = ?`, [keyHash]), KEY.read);
    },

    async findById(id: number): Promise<ApiKeyRecord | null> {
      return first(await db.all(`SELECT ${KEY.list} FROM api_keys WHERE id = ?`, [id]), KEY.read);
    },

    /** The subscription's live key first, else its most recent one. */
    async findBySubscription(subscriptionId: string): Promise<ApiKeyRecord | null> {
      const rows = await db.all(
        `SELECT ${KEY.list} FROM api_keys WHERE subscription_id = ?
         ORDER BY CASE WHEN status = 'active' THEN 0 ELSE 1 END, id DESC LIMIT 1`,
        [subscriptionId],
      );
      return first(rows, KEY.read);
    },

    /** Whether any key (active or revoked) was ever issued to this payment-provider customer. */
    async customerKnown(customerId: string): Promise<boolean> {
      return (await db.all('SELECT 1 AS known FROM api_keys WHERE customer_id = ? LIMIT 1', [customerId])).length > 0;
    },

    async list(): Promise<ApiKeyRecord[]> {
      return (await db.all(`SELECT ${KEY.list} FROM api_keys ORDER BY id`)).map(KEY.read);
    },

    /** Revoke by id or by visible prefix; returns the number revoked. */
    revoke(idOrPrefix: number | string): Promise<number> {
      return revokeWhere(typeof idOrPrefix === 'number' ? 'id' : 'prefix', idOrPrefix);
    },

    revokeForSubscription(subscriptionId: string): Promise<number> {
      return revokeWhere('subscription_id', subscriptionId);
    },

    async setSubscriptionStatus(subscriptionId: string, status: string): Promise<void> {
      await change(
        (q) => q.run('UPDATE api_keys SET subscription_status = ? WHERE subscription_id = ?', [status, subscriptionId]),
        (n) => n > 0,
      );
    },

    async setMonthlyCap(keyId: number, capYen: number | null): Promise<void> {
      await change(
        (q) => q.run('UPDATE api_keys SET monthly_cap_yen = ? WHERE id = ?', [capYen, keyId]),
        (n) => n > 0,
      );
    },
  };
}
