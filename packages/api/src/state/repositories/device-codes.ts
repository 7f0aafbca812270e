// Device authorization codes (RFC 8628). The device code is stored only as a
// hash; a key approved for a device waits encrypted for its single hand-over.
// `transition` is one conditional UPDATE, so a key is handed out exactly once.
import { first, now, num, numOrNull, strOrNull, type Row, type SqlDatabase } from '../sql.ts';

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

/** DeviceCodeRecord field -> column, in the order of COLUMNS. */
const COLUMN_OF: Record<keyof DeviceCodeRecord, string> = {
  deviceCodeHash: 'device_code_hash',
  userCode: 'user_code',
  clientId: 'client_id',
  scope: 'scope',
  status: 'status',
  keyId: 'key_id',
  sealedKey: 'sealed_key',
  interval: 'poll_interval',
  expiresAt: 'expires_at',
  lastPolledAt: 'last_polled_at',
};
const FIELDS = Object.keys(COLUMN_OF) as (keyof DeviceCodeRecord)[];
const COLUMNS = Object.values(COLUMN_OF).join(', ');

function toDeviceCode(r: Row): DeviceCodeRecord {
  return {
    deviceCodeHash: String(r.device_code_hash),
    userCode: String(r.user_code),
    clientId: String(r.client_id),
    scope: String(r.scope),
    status: r.status as DeviceCodeRecord['status'],
    keyId: numOrNull(r.key_id),
    sealedKey: strOrNull(r.sealed_key),
    interval: num(r.poll_interval),
    expiresAt: String(r.expires_at),
    lastPolledAt: strOrNull(r.last_polled_at),
  };
}

export type DeviceCodesRepository = ReturnType<typeof deviceCodesRepository>;

export function deviceCodesRepository(db: SqlDatabase) {
  /** `UPDATE … SET <fields>` of the defined fields of `patch`, where `condition` holds; returns rows changed. */
  function update(patch: Partial<DeviceCodeRecord>, condition: string, params: unknown[]): Promise<number> {
    const fields = FIELDS.filter((f) => f !== 'deviceCodeHash' && patch[f] !== undefined);
    if (!fields.length) return Promise.resolve(0);
    const sets = fields.map((f) => `${COLUMN_OF[f]} = ?`).join(', ');
    return db.run(`UPDATE device_codes SET ${sets} WHERE ${condition}`, [...fields.map((f) => patch[f]), ...params]);
  }

  return {
    async create(record: DeviceCodeRecord): Promise<void> {
      await db.run(
        `INSERT INTO device_codes (${COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [...FIELDS.map((f) => record[f]), now()],
      );
    },

    async findByHash(deviceCodeHash: string): Promise<DeviceCodeRecord | null> {
      return first(await db.all(`SELECT ${COLUMNS} FROM device_codes WHERE device_code_hash = ?`, [deviceCodeHash]), toDeviceCode);
    },

    async findByUserCode(userCode: string): Promise<DeviceCodeRecord | null> {
      return first(await db.all(`SELECT ${COLUMNS} FROM device_codes WHERE user_code = ?`, [userCode]), toDeviceCode);
    },

    /** Change some fields of a code (the hash itself never changes). */
    async update(deviceCodeHash: string, patch: Partial<DeviceCodeRecord>): Promise<void> {
      await update(patch, 'device_code_hash = ?', [deviceCodeHash]);
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
