// API keys: stored only as the SHA-256 hex of the key (`keyHash`) with a
// short visible prefix; the plaintext never reaches the store.
// Every change to a key (created, revoked, cap, subscription status) runs
// under the next 'keys' generation: the generation row is locked first (so
// changes commit in generation order), the changed rows are stamped with it
// (`api_keys.generation`) and the row moves to it, all in one transaction.
// `changed` hears the key hashes once that transaction has committed: the
// key caches of this process drop those keys at once, those of other
// processes when they next poll the generation and read which keys changed
// since (`changedSince`, state/key-cache.ts). Another key's change never
// drops a cached key.
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

/** What a change wrote: its result and the hashes of the keys it touched. */
interface Changed<T> {
  result: T;
  hashes: string[];
}

const hashesOf = (rows: { key_hash?: unknown }[]): string[] => rows.map((r) => String(r.key_hash));

/**
 * @param changed called with the hashes of the keys a change touched, after
 *   it was written (the store defers it to the commit of an enclosing transaction).
 */
export function keysRepository(db: SqlDatabase, changed: (keyHashes: readonly string[]) => void = () => undefined) {
  /**
   * Run a change under the next generation: `write` stamps the rows it
   * changes with `generation` and returns their hashes; the generation row
   * moves only when some row changed (a change of nothing bumps nothing).
   */
  async function change<T>(write: (q: Queryer, generation: number) => Promise<Changed<T>>): Promise<T> {
    const { result, hashes } = await db.tx(async (q) => {
      // Locked first: a concurrent change waits here and then takes the next number.
      const [row] = await q.all<{ value: unknown }>(`SELECT value FROM state_generations WHERE name = 'keys'${db.forUpdate}`);
      const generation = num(row?.value ?? 0) + 1;
      const out = await write(q, generation);
      if (out.hashes.length) await q.run("UPDATE state_generations SET value = ? WHERE name = 'keys'", [generation]);
      return out;
    });
    if (hashes.length) changed(hashes);
    return result;
  }
  const revokeWhere = (column: 'id' | 'prefix' | 'subscription_id', value: unknown): Promise<number> =>
    change(async (q, generation) => {
      const rows = await q.all(
        `UPDATE api_keys SET status = 'revoked', revoked_at = ?, generation = ? WHERE ${column} = ? AND status = 'active' RETURNING key_hash`,
        [now(), generation, value],
      );
      return { result: rows.length, hashes: hashesOf(rows) };
    });

  return {
    async create(input: NewApiKey): Promise<ApiKeyRecord> {
      // A new key is a change too: no cache keeps "unknown" for its hash.
      const rows = await change(async (q, generation) => {
        const inserted = await q.all(
          `INSERT INTO api_keys (key_hash, prefix, tier, status, customer_id, subscription_id, created_at, generation)
         VALUES (?, ?, ?, 'active', ?, ?, ?, ?) RETURNING ${KEY.list}`,
          [input.keyHash, input.prefix, input.tier, input.customerId ?? null, input.subscriptionId ?? null, now(), generation],
        );
        return { result: inserted, hashes: hashesOf(inserted) };
      });
      return KEY.read(rows[0]);
    },

    /** The current generation of the keys table (state/key-cache.ts polls it). */
    generation: (): Promise<number> => keysGeneration(db),

    /**
     * The hashes of the keys changed after `generation`, or null when more
     * than `limit` did (a cache then forgets everything).
     */
    async changedSince(generation: number, limit: number): Promise<string[] | null> {
      const rows = await db.all('SELECT key_hash FROM api_keys WHERE generation > ? LIMIT ?', [generation, limit + 1]);
      return rows.length > limit ? null : hashesOf(rows);
    },

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
      await change(async (q, generation) => ({
        result: undefined,
        hashes: hashesOf(
          await q.all('UPDATE api_keys SET subscription_status = ?, generation = ? WHERE subscription_id = ? RETURNING key_hash', [
            status,
            generation,
            subscriptionId,
          ]),
        ),
      }));
    },

    async setMonthlyCap(keyId: number, capYen: number | null): Promise<void> {
      await change(async (q, generation) => ({
        result: undefined,
        hashes: hashesOf(await q.all('UPDATE api_keys SET monthly_cap_yen = ?, generation = ? WHERE id = ? RETURNING key_hash', [capYen, generation, keyId])),
      }));
    },

    /** The cap of a key as stored now (null: uncapped or no such key), read where a cached record may be stale. */
    async monthlyCap(keyId: number): Promise<number | null> {
      const rows = await db.all('SELECT monthly_cap_yen FROM api_keys WHERE id = ?', [keyId]);
      return rows.length ? numOrNull(rows[0].monthly_cap_yen) : null;
    },
  };
}
