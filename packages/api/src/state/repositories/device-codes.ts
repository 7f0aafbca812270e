// Device authorization codes (RFC 8628). The device code is stored only as a
// hash; a key approved for a device waits encrypted for its single hand-over.
// `transition` is one conditional UPDATE, so a key is handed out exactly once.
import { columns, first, now, num, numOrNull, placeholders, strOrNull, type SqlDatabase } from '../sql.ts';

export interface DeviceCodeRecord {
  deviceCodeHash: string;
  userCode: string;
  clientId: string;
  scope: string;
  status: 'pending' | 'approved' | 'denied' | 'consumed';
  keyId: number | null;
  /** Plaintext key encrypted (AES-256-GCM) for the single hand-over at /v1/device/token. */
  sealedKey: string | null;
  interval: number;
  expiresAt: string;
  lastPolledAt: string | null;
}

const DEVICE_CODE = columns<DeviceCodeRecord>({
  deviceCodeHash: ['device_code_hash', String],
  userCode: ['user_code', String],
  clientId: ['client_id', String],
  scope: ['scope', String],
  status: ['status', (v) => v as DeviceCodeRecord['status']],
  keyId: ['key_id', numOrNull],
  sealedKey: ['sealed_key', strOrNull],
  interval: ['poll_interval', num],
  expiresAt: ['expires_at', String],
  lastPolledAt: ['last_polled_at', strOrNull],
});

export type DeviceCodesRepository = ReturnType<typeof deviceCodesRepository>;

export function deviceCodesRepository(db: SqlDatabase) {
  /** `UPDATE … SET <fields>` of the defined fields of `patch`, where `condition` holds; returns rows changed. */
  function update(patch: Partial<DeviceCodeRecord>, condition: string, params: unknown[]): Promise<number> {
    const fields = DEVICE_CODE.fields.filter((f) => f !== 'deviceCodeHash' && patch[f] !== undefined);
    if (!fields.length) return Promise.resolve(0);
    const sets = fields.map((f) => `${DEVICE_CODE.column(f)} = ?`).join(', ');
    return db.run(`UPDATE device_codes SET ${sets} WHERE ${condition}`, [...fields.map((f) => patch[f]), ...params]);
  }

  return {
    async create(record: DeviceCodeRecord): Promise<void> {
      await db.run(`INSERT INTO device_codes (${DEVICE_CODE.list}, created_at) VALUES (${placeholders(DEVICE_CODE.fields.length + 1)})`, [
        ...DEVICE_CODE.values(record),
        now(),
      ]);
    },

    async findByHash(deviceCodeHash: string): Promise<DeviceCodeRecord | null> {
      return first(await db.all(`SELECT ${DEVICE_CODE.list} FROM device_codes WHERE device_code_hash = ?`, [deviceCodeHash]), DEVICE_CODE.read);
    },

    async findByUserCode(userCode: string): Promise<DeviceCodeRecord | null> {
      return first(await db.all(`SELECT ${DEVICE_CODE.list} FROM device_codes WHERE user_code = ?`, [userCode]), DEVICE_CODE.read);
    },

    /** Change some fields of a code (the hash itself never changes). */
    async update(deviceCodeHash: string, patch: Partial<DeviceCodeRecord>): Promise<void> {
      await update(patch, 'device_code_hash = ?', [deviceCodeHash]);
    },

    /**
     * Delete codes that expired before `before`. Returns the key ids of codes
     * that were approved but never picked up (nobody holds those keys: the
     * caller revokes them). One transaction, so no code is handed out between
     * the read and the delete.
     */
    purgeExpired(before: string): Promise<{ purged: number; unclaimedKeyIds: number[] }> {
      return db.tx(async (q) => {
        const unclaimed = await q.all<{ key_id: unknown }>(
          `SELECT key_id FROM device_codes WHERE expires_at < ? AND status = 'approved' AND key_id IS NOT NULL${db.forUpdate}`,
          [before],
        );
        const purged = await q.run('DELETE FROM device_codes WHERE expires_at < ?', [before]);
        return { purged, unclaimedKeyIds: unclaimed.map((r) => num(r.key_id)) };
      });
    },

    /**
     * Move a code from status `from` to `to` only if it is still in `from`
     * (one atomic UPDATE, with an optional key/sealed-key change); true when
     * this call made the transition.
     */
    async transition(
      deviceCodeHash: string,
      from: DeviceCodeRecord['status'],
      to: DeviceCodeRecord['status'],
      patch: { sealedKey?: string | null; keyId?: number | null } = {},
    ): Promise<boolean> {
      const changed = await update({ status: to, ...patch }, 'device_code_hash = ? AND status = ?', [deviceCodeHash, from]);
      return changed === 1;
    },
  };
}
