// The StateStore over a small SQL driver. SQLite and PostgreSQL run the same
// statements (written with `?` placeholders; the PostgreSQL driver numbers
// them). Every counter and the cap-guarded spend are single
// `INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING` statements, so they
// stay exact when several processes share one database.
import type {
  AdvisorRecord,
  ApiKeyRecord,
  CheckoutIssuance,
  CounterResult,
  DeviceCodeRecord,
  FeedbackInput,
  MeterOutboxItem,
  NewApiKey,
  ReferralRecord,
  StateStore,
  UsageEvent,
} from './store.ts';
import { jstDate } from '../time.ts';

/** Attempts after which a refused meter event is parked (kept, no longer retried). */
export const MAX_METER_ATTEMPTS = 20;

export type Row = Record<string, unknown>;

export interface Queryer {
  all<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export interface SqlDriver extends Queryer {
  readonly kind: 'sqlite' | 'postgres';
  /** Row-lock suffix for a SELECT inside a transaction (`FOR UPDATE` on PostgreSQL). */
  readonly forUpdate: string;
  /** Run `fn` in one transaction; a thrown error rolls it back. */
  tx<T>(fn: (q: Queryer) => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

class Rollback extends Error {}

const now = (): string => new Date().toISOString();
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

const KEY_COLUMNS =
  'id, key_hash, prefix, tier, status, customer_id, subscription_id, monthly_cap_yen, created_at, revoked_at, subscription_status';

function toKey(r: Row): ApiKeyRecord {
  return {
    id: num(r.id),
    keyHash: String(r.key_hash),
    prefix: String(r.prefix),
    tier: r.tier as ApiKeyRecord['tier'],
    status: r.status as ApiKeyRecord['status'],
    customerId: strOrNull(r.customer_id),
    subscriptionId: strOrNull(r.subscription_id),
    monthlyCapYen: numOrNull(r.monthly_cap_yen),
    createdAt: String(r.created_at),
    revokedAt: strOrNull(r.revoked_at),
    subscriptionStatus: strOrNull(r.subscription_status),
  };
}

const DEVICE_COLUMNS = 'device_code_hash, user_code, client_id, scope, status, key_id, sealed_key, poll_interval, expires_at, last_polled_at';

function toDevice(r: Row): DeviceCodeRecord {
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

/** DeviceCodeRecord field -> column, for partial updates. */
const DEVICE_PATCH: Record<keyof DeviceCodeRecord, string> = {
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

const ADVISOR_COLUMNS =
  'id, firm_name, firm_type, specialties, prefecture, fields, owner_key_hash, stripe_account_id, disabled_reason, verified_at, created_at';

function toAdvisor(r: Row): AdvisorRecord {
  return {
    id: num(r.id),
    firmName: String(r.firm_name),
    firmType: String(r.firm_type),
    specialties: JSON.parse(String(r.specialties)) as string[],
    prefecture: String(r.prefecture),
    fields: JSON.parse(String(r.fields)) as Record<string, unknown>,
    ownerKeyHash: strOrNull(r.owner_key_hash),
    stripeAccountId: strOrNull(r.stripe_account_id),
    disabledReason: strOrNull(r.disabled_reason),
    verifiedAt: strOrNull(r.verified_at),
    createdAt: String(r.created_at),
  };
}

const REFERRAL_COLUMNS =
  'id, advisor_id, token_hash, token_prefix, source_program_id, clicked_at, converted_at, conversion_value_yen, commission_yen, commission_paid_at';

function toReferral(r: Row): ReferralRecord {
  return {
    id: num(r.id),
    advisorId: num(r.advisor_id),
    tokenHash: String(r.token_hash),
    tokenPrefix: String(r.token_prefix),
    sourceProgramId: strOrNull(r.source_program_id),
    clickedAt: strOrNull(r.clicked_at),
    convertedAt: strOrNull(r.converted_at),
    conversionValueYen: numOrNull(r.conversion_value_yen),
    commissionYen: numOrNull(r.commission_yen),
    commissionPaidAt: strOrNull(r.commission_paid_at),
  };
}

/** `LIKE` pattern matching a JSON string element `"value"` inside a JSON array text. */
function jsonElementPattern(value: string): string {
  return `%${JSON.stringify(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class SqlStateStore implements StateStore {
  readonly kind: 'sqlite' | 'postgres';
  private readonly db: SqlDriver;

  constructor(driver: SqlDriver) {
    this.db = driver;
    this.kind = driver.kind;
  }

  migrate(): Promise<void> {
    return this.db.migrate();
  }

  async ping(): Promise<boolean> {
    try {
      return await this.db.ping();
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.db.close();
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    const existing = await this.db.all<{ value: string }>('SELECT value FROM settings WHERE name = ?', [name]);
    if (existing.length) return existing[0].value;
    await this.db.run('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, create()]);
    const rows = await this.db.all<{ value: string }>('SELECT value FROM settings WHERE name = ?', [name]);
    return rows[0].value;
  }

  // Keys

  async createKey(input: NewApiKey): Promise<ApiKeyRecord> {
    const rows = await this.db.all(
      `INSERT INTO api_keys (key_hash, prefix, tier, status, customer_id, subscription_id, created_at)
       VALUES (?, ?, ?, 'active', ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
      [input.keyHash, input.prefix, input.tier, input.customerId ?? null, input.subscriptionId ?? null, now()],
    );
    return toKey(rows[0]);
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const rows = await this.db.all(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`, [keyHash]);
    return rows.length ? toKey(rows[0]) : null;
  }

  async findKeyById(id: number): Promise<ApiKeyRecord | null> {
    const rows = await this.db.all(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, [id]);
    return rows.length ? toKey(rows[0]) : null;
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (await this.db.all(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`)).map(toKey);
  }

  revokeKey(idOrPrefix: number | string): Promise<number> {
    const column = typeof idOrPrefix === 'number' ? 'id' : 'prefix';
    return this.db.run(
      `UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE ${column} = ? AND status = 'active'`,
      [now(), idOrPrefix],
    );
  }

  revokeKeysForSubscription(subscriptionId: string): Promise<number> {
    return this.db.run(
      `UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE subscription_id = ? AND status = 'active'`,
      [now(), subscriptionId],
    );
  }

  async findKeyBySubscription(subscriptionId: string): Promise<ApiKeyRecord | null> {
    // The live key first, else the most recent one.
    const rows = await this.db.all(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE subscription_id = ?
       ORDER BY CASE WHEN status = 'active' THEN 0 ELSE 1 END, id DESC LIMIT 1`,
      [subscriptionId],
    );
    return rows.length ? toKey(rows[0]) : null;
  }

  async setSubscriptionStatus(subscriptionId: string, status: string): Promise<void> {
    await this.db.run('UPDATE api_keys SET subscription_status = ? WHERE subscription_id = ?', [status, subscriptionId]);
  }

  async setMonthlyCap(keyId: number, capYen: number | null): Promise<void> {
    await this.db.run('UPDATE api_keys SET monthly_cap_yen = ? WHERE id = ?', [capYen, keyId]);
  }

  // Counters

  async takeCounter(scope: string, subject: string, window: string, limit: number): Promise<CounterResult> {
    const rows = await this.db.all<{ count: unknown }>(
      `INSERT INTO counters (scope, subject, period, count)
       SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 1 WHERE CAST(? AS INTEGER) >= 1
       ON CONFLICT (scope, subject, period) DO UPDATE SET count = counters.count + 1
       WHERE counters.count < CAST(? AS INTEGER)
       RETURNING count`,
      [scope, subject, window, limit, limit],
    );
    if (rows.length) return { allowed: true, count: num(rows[0].count) };
    return { allowed: false, count: await this.peekCounter(scope, subject, window) };
  }

  async peekCounter(scope: string, subject: string, window: string): Promise<number> {
    const rows = await this.db.all<{ count: unknown }>(
      'SELECT count FROM counters WHERE scope = ? AND subject = ? AND period = ?',
      [scope, subject, window],
    );
    return rows.length ? num(rows[0].count) : 0;
  }

  // Usage and spend

  async recordUsage(event: UsageEvent, capYen: number | null): Promise<boolean> {
    const created = new Date(event.createdAt);
    const day = jstDate(Number.isNaN(created.getTime()) ? new Date() : created);
    try {
      return await this.db.tx(async (q) => {
        const inserted = await q.all(
          `INSERT INTO usage_events (event_id, key_id, customer_id, tier, method, route, status, billable, amount_yen, billing_month, day_jst, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
          [
            event.eventId, event.keyId, event.customerId, event.tier, event.method, event.route, event.status,
            event.billable ? 1 : 0, event.billable ? event.amountYen : 0, event.billingMonth, day, event.createdAt,
          ],
        );
        if (!inserted.length) return true; // already recorded: a retry changes nothing
        if (event.billable && event.amountYen > 0 && event.keyId !== null) {
          const spent = await q.all(
            `INSERT INTO monthly_spend (key_id, billing_month, spent_yen)
             SELECT CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER)
             WHERE CAST(? AS INTEGER) IS NULL OR CAST(? AS INTEGER) <= CAST(? AS INTEGER)
             ON CONFLICT (key_id, billing_month) DO UPDATE SET spent_yen = monthly_spend.spent_yen + excluded.spent_yen
             WHERE CAST(? AS INTEGER) IS NULL OR monthly_spend.spent_yen + excluded.spent_yen <= CAST(? AS INTEGER)
             RETURNING spent_yen`,
            [event.keyId, event.billingMonth, event.amountYen, capYen, event.amountYen, capYen, capYen, capYen],
          );
          if (!spent.length) throw new Rollback('monthly cap reached');
        }
        if (event.billable && event.customerId) {
          await q.run(
            `INSERT INTO meter_outbox (event_id, customer_id, ts, value, attempts, created_at)
             VALUES (?, ?, ?, 1, 0, ?) ON CONFLICT (event_id) DO NOTHING`,
            [event.eventId, event.customerId, Math.floor(created.getTime() / 1000) || Math.floor(Date.now() / 1000), now()],
          );
        }
        return true;
      });
    } catch (err) {
      if (err instanceof Rollback) return false;
      throw err;
    }
  }

  async monthlySpend(keyId: number, billingMonth: string): Promise<number> {
    const rows = await this.db.all<{ spent_yen: unknown }>(
      'SELECT spent_yen FROM monthly_spend WHERE key_id = ? AND billing_month = ?',
      [keyId, billingMonth],
    );
    return rows.length ? num(rows[0].spent_yen) : 0;
  }

  async usageSummary(keyId: number, billingMonth: string): ReturnType<StateStore['usageSummary']> {
    const [totals] = await this.db.all(
      `SELECT CAST(COUNT(*) AS INTEGER) AS requests, CAST(COALESCE(SUM(billable), 0) AS INTEGER) AS billable,
              CAST(COALESCE(SUM(amount_yen), 0) AS INTEGER) AS spend
       FROM usage_events WHERE key_id = ? AND billing_month = ?`,
      [keyId, billingMonth],
    );
    const perDay = await this.db.all(
      `SELECT day_jst, CAST(COUNT(*) AS INTEGER) AS requests, CAST(SUM(billable) AS INTEGER) AS billable
       FROM usage_events WHERE key_id = ? AND billing_month = ? GROUP BY day_jst ORDER BY day_jst`,
      [keyId, billingMonth],
    );
    const top = await this.db.all(
      `SELECT route, CAST(COUNT(*) AS INTEGER) AS requests
       FROM usage_events WHERE key_id = ? AND billing_month = ? GROUP BY route ORDER BY requests DESC, route LIMIT 10`,
      [keyId, billingMonth],
    );
    return {
      requests: num(totals.requests),
      billableRequests: num(totals.billable),
      spendYen: num(totals.spend),
      perDay: perDay.map((r) => ({ date: String(r.day_jst), requests: num(r.requests), billable: num(r.billable) })),
      topEndpoints: top.map((r) => ({ route: String(r.route), requests: num(r.requests) })),
    };
  }

  // Meter outbox

  async pendingMeterEvents(limit: number): Promise<MeterOutboxItem[]> {
    // Events Stripe refused MAX_METER_ATTEMPTS times stay in the table with
    // their last error (nothing is lost; an operator can inspect them) but no
    // longer take a place in every flush.
    const rows = await this.db.all(
      `SELECT event_id, customer_id, ts, value, attempts FROM meter_outbox
       WHERE sent_at IS NULL AND attempts < ? ORDER BY created_at, event_id LIMIT ?`,
      [MAX_METER_ATTEMPTS, limit],
    );
    return rows.map((r) => ({
      eventId: String(r.event_id),
      customerId: String(r.customer_id),
      timestamp: num(r.ts),
      value: num(r.value),
      attempts: num(r.attempts),
    }));
  }

  async markMeterEventsSent(eventIds: string[]): Promise<void> {
    if (!eventIds.length) return;
    await this.db.run(
      `UPDATE meter_outbox SET sent_at = ? WHERE event_id IN (${placeholders(eventIds.length)})`,
      [now(), ...eventIds],
    );
  }

  async markMeterEventsFailed(eventIds: string[], error: string): Promise<void> {
    if (!eventIds.length) return;
    await this.db.run(
      `UPDATE meter_outbox SET attempts = attempts + 1, last_error = ? WHERE event_id IN (${placeholders(eventIds.length)})`,
      [error.slice(0, 500), ...eventIds],
    );
  }

  // Feedback

  async insertFeedback(input: FeedbackInput): Promise<number> {
    const rows = await this.db.all<{ id: unknown }>(
      `INSERT INTO feedback (message, rating, endpoint, request_id, key_hash, customer_id, tier, address_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [input.message, input.rating, input.endpoint, input.requestId, input.keyHash, input.customerId, input.tier, input.addressHash, now()],
    );
    return num(rows[0].id);
  }

  // Webhooks

  async claimWebhookEvent(eventId: string, type: string): Promise<boolean> {
    const rows = await this.db.all(
      'INSERT INTO webhook_events (event_id, type, received_at) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
      [eventId, type, now()],
    );
    return rows.length === 1;
  }

  async releaseWebhookEvent(eventId: string): Promise<void> {
    await this.db.run('DELETE FROM webhook_events WHERE event_id = ?', [eventId]);
  }

  async recordPaymentFailure(customerId: string | null, subscriptionId: string | null, invoiceId: string | null): Promise<void> {
    await this.db.run(
      'INSERT INTO payment_failures (customer_id, subscription_id, invoice_id, created_at) VALUES (?, ?, ?, ?)',
      [customerId, subscriptionId, invoiceId, now()],
    );
  }

  // Checkout issuance

  async findIssuance(subscriptionId: string): Promise<CheckoutIssuance | null> {
    const rows = await this.db.all(
      'SELECT subscription_id, customer_id, key_id, sealed_key, revealed_at FROM checkout_issuance WHERE subscription_id = ?',
      [subscriptionId],
    );
    if (!rows.length) return null;
    const r = rows[0];
    return {
      subscriptionId: String(r.subscription_id),
      customerId: strOrNull(r.customer_id),
      keyId: num(r.key_id),
      sealedKey: strOrNull(r.sealed_key),
      revealedAt: strOrNull(r.revealed_at),
    };
  }

  async createIssuance(issuance: CheckoutIssuance): Promise<boolean> {
    const rows = await this.db.all(
      `INSERT INTO checkout_issuance (subscription_id, customer_id, key_id, sealed_key, revealed_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id) DO NOTHING RETURNING subscription_id`,
      [issuance.subscriptionId, issuance.customerId, issuance.keyId, issuance.sealedKey, issuance.revealedAt, now()],
    );
    return rows.length === 1;
  }

  revealIssuance(subscriptionId: string): Promise<{ sealedKey: string | null } | null> {
    return this.db.tx(async (q) => {
      const rows = await q.all<{ sealed_key: unknown }>(
        `SELECT sealed_key FROM checkout_issuance WHERE subscription_id = ? AND revealed_at IS NULL${this.db.forUpdate}`,
        [subscriptionId],
      );
      if (!rows.length) return null;
      const changed = await q.run(
        'UPDATE checkout_issuance SET revealed_at = ?, sealed_key = NULL WHERE subscription_id = ? AND revealed_at IS NULL',
        [now(), subscriptionId],
      );
      return changed === 1 ? { sealedKey: strOrNull(rows[0].sealed_key) } : null;
    });
  }

  // Billing history cache

  async getBillingCache(customerId: string): Promise<{ payload: string; cachedAt: string } | null> {
    const rows = await this.db.all('SELECT payload, cached_at FROM billing_cache WHERE customer_id = ?', [customerId]);
    return rows.length ? { payload: String(rows[0].payload), cachedAt: String(rows[0].cached_at) } : null;
  }

  async putBillingCache(customerId: string, payload: string): Promise<string> {
    const cachedAt = now();
    await this.db.run(
      `INSERT INTO billing_cache (customer_id, payload, cached_at) VALUES (?, ?, ?)
       ON CONFLICT (customer_id) DO UPDATE SET payload = excluded.payload, cached_at = excluded.cached_at`,
      [customerId, payload, cachedAt],
    );
    return cachedAt;
  }

  // Device authorization

  async createDeviceCode(record: DeviceCodeRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO device_codes (${DEVICE_COLUMNS}, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        record.deviceCodeHash, record.userCode, record.clientId, record.scope, record.status, record.keyId,
        record.sealedKey, record.interval, record.expiresAt, record.lastPolledAt, now(),
      ],
    );
  }

  async findDeviceCodeByHash(deviceCodeHash: string): Promise<DeviceCodeRecord | null> {
    const rows = await this.db.all(`SELECT ${DEVICE_COLUMNS} FROM device_codes WHERE device_code_hash = ?`, [deviceCodeHash]);
    return rows.length ? toDevice(rows[0]) : null;
  }

  async findDeviceCodeByUserCode(userCode: string): Promise<DeviceCodeRecord | null> {
    const rows = await this.db.all(`SELECT ${DEVICE_COLUMNS} FROM device_codes WHERE user_code = ?`, [userCode]);
    return rows.length ? toDevice(rows[0]) : null;
  }

  async updateDeviceCode(deviceCodeHash: string, patch: Partial<DeviceCodeRecord>): Promise<void> {
    const entries = Object.entries(patch).filter(([field, v]) => field !== 'deviceCodeHash' && v !== undefined && field in DEVICE_PATCH);
    if (!entries.length) return;
    const sets = entries.map(([field]) => `${DEVICE_PATCH[field as keyof DeviceCodeRecord]} = ?`).join(', ');
    await this.db.run(`UPDATE device_codes SET ${sets} WHERE device_code_hash = ?`, [...entries.map(([, v]) => v), deviceCodeHash]);
  }

  /**
   * Move a device code from `from` to `to` only if it is still in `from`
   * (one atomic UPDATE); true when this call made the transition. The token
   * hand-over uses it so a key is handed out exactly once.
   */
  async transitionDeviceCode(deviceCodeHash: string, from: DeviceCodeRecord['status'], to: DeviceCodeRecord['status'], patch: { sealedKey?: string | null; keyId?: number | null } = {}): Promise<boolean> {
    const sets = ['status = ?'];
    const params: unknown[] = [to];
    if (patch.sealedKey !== undefined) {
      sets.push('sealed_key = ?');
      params.push(patch.sealedKey);
    }
    if (patch.keyId !== undefined) {
      sets.push('key_id = ?');
      params.push(patch.keyId);
    }
    const changed = await this.db.run(
      `UPDATE device_codes SET ${sets.join(', ')} WHERE device_code_hash = ? AND status = ?`,
      [...params, deviceCodeHash, from],
    );
    return changed === 1;
  }

  // Advisors and referrals

  async createAdvisor(input: Omit<AdvisorRecord, 'id' | 'createdAt'>): Promise<AdvisorRecord> {
    const rows = await this.db.all(
      `INSERT INTO advisors (firm_name, firm_type, specialties, prefecture, fields, owner_key_hash, stripe_account_id, disabled_reason, verified_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${ADVISOR_COLUMNS}`,
      [
        input.firmName, input.firmType, JSON.stringify(input.specialties ?? []), input.prefecture, JSON.stringify(input.fields ?? {}),
        input.ownerKeyHash, input.stripeAccountId, input.disabledReason, input.verifiedAt, now(),
      ],
    );
    return toAdvisor(rows[0]);
  }

  async getAdvisor(id: number): Promise<AdvisorRecord | null> {
    const rows = await this.db.all(`SELECT ${ADVISOR_COLUMNS} FROM advisors WHERE id = ?`, [id]);
    return rows.length ? toAdvisor(rows[0]) : null;
  }

  async listAdvisors(filter: { prefecture?: string; specialty?: string; firmType?: string; verifiedOnly: boolean; limit: number; offset: number }): Promise<{ total: number; rows: AdvisorRecord[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.prefecture) {
      where.push('prefecture = ?');
      params.push(filter.prefecture);
    }
    if (filter.firmType) {
      where.push('firm_type = ?');
      params.push(filter.firmType);
    }
    if (filter.specialty) {
      where.push("specialties LIKE ? ESCAPE '\\'");
      params.push(jsonElementPattern(filter.specialty));
    }
    if (filter.verifiedOnly) where.push('verified_at IS NOT NULL AND disabled_reason IS NULL');
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [count] = await this.db.all(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM advisors ${clause}`, params);
    const rows = await this.db.all(
      `SELECT ${ADVISOR_COLUMNS} FROM advisors ${clause} ORDER BY id LIMIT ? OFFSET ?`,
      [...params, filter.limit, filter.offset],
    );
    return { total: num(count.n), rows: rows.map(toAdvisor) };
  }

  async verifyAdvisor(id: number, ownerKeyHash: string | null): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE advisors SET verified_at = COALESCE(verified_at, ?), owner_key_hash = COALESCE(?, owner_key_hash) WHERE id = ?',
      [now(), ownerKeyHash, id],
    );
    return changed === 1;
  }

  async createReferral(input: Omit<ReferralRecord, 'id'>): Promise<ReferralRecord> {
    const rows = await this.db.all(
      `INSERT INTO referrals (advisor_id, token_hash, token_prefix, source_program_id, clicked_at, converted_at, conversion_value_yen, commission_yen, commission_paid_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${REFERRAL_COLUMNS}`,
      [
        input.advisorId, input.tokenHash, input.tokenPrefix, input.sourceProgramId, input.clickedAt, input.convertedAt,
        input.conversionValueYen, input.commissionYen, input.commissionPaidAt,
      ],
    );
    return toReferral(rows[0]);
  }

  async findReferralByTokenHash(tokenHash: string): Promise<ReferralRecord | null> {
    const rows = await this.db.all(`SELECT ${REFERRAL_COLUMNS} FROM referrals WHERE token_hash = ?`, [tokenHash]);
    return rows.length ? toReferral(rows[0]) : null;
  }

  /** Convert once: returns the converted referral, or null when absent or already converted. */
  async convertReferral(tokenHash: string, conversionValueYen: number | null, commissionYen: number): Promise<ReferralRecord | null> {
    const rows = await this.db.all(
      `UPDATE referrals SET converted_at = ?, conversion_value_yen = ?, commission_yen = ?
       WHERE token_hash = ? AND converted_at IS NULL RETURNING ${REFERRAL_COLUMNS}`,
      [now(), conversionValueYen, commissionYen, tokenHash],
    );
    return rows.length ? toReferral(rows[0]) : null;
  }

  async listReferrals(advisorId: number): Promise<ReferralRecord[]> {
    return (await this.db.all(`SELECT ${REFERRAL_COLUMNS} FROM referrals WHERE advisor_id = ? ORDER BY id`, [advisorId])).map(toReferral);
  }

  // Admin

  async adminFunnel(days: number): Promise<{ date: string; tier: string; requests: number }[]> {
    const since = jstDate(new Date(Date.now() - Math.max(0, days - 1) * 86_400_000));
    const keyed = await this.db.all(
      `SELECT day_jst AS date, tier, CAST(COUNT(*) AS INTEGER) AS requests FROM usage_events
       WHERE day_jst >= ? GROUP BY day_jst, tier`,
      [since],
    );
    const anonymous = await this.db.all(
      `SELECT period AS date, 'anonymous' AS tier, CAST(SUM(count) AS INTEGER) AS requests FROM counters
       WHERE scope = 'anon' AND period >= ? GROUP BY period`,
      [since],
    );
    return [...keyed, ...anonymous]
      .map((r) => ({ date: String(r.date), tier: String(r.tier), requests: num(r.requests) }))
      .sort((a, b) => a.date.localeCompare(b.date) || a.tier.localeCompare(b.tier));
  }

  async adminCohorts(): Promise<{ month: string; keys: number; active: number }[]> {
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const rows = await this.db.all(
      `SELECT SUBSTR(k.created_at, 1, 7) AS month, CAST(COUNT(*) AS INTEGER) AS keys,
              CAST(SUM(CASE WHEN EXISTS (SELECT 1 FROM usage_events u WHERE u.key_id = k.id AND u.created_at >= ?) THEN 1 ELSE 0 END) AS INTEGER) AS active
       FROM api_keys k GROUP BY SUBSTR(k.created_at, 1, 7) ORDER BY month`,
      [since],
    );
    return rows.map((r) => ({ month: String(r.month), keys: num(r.keys), active: num(r.active) }));
  }

  async adminErrors(limit: number): Promise<{ route: string; status: number; count: number; lastAt: string }[]> {
    const rows = await this.db.all(
      `SELECT route, status, CAST(SUM(count) AS INTEGER) AS count, MAX(last_at) AS last_at
       FROM error_log GROUP BY route, status ORDER BY count DESC, route, status LIMIT ?`,
      [limit],
    );
    return rows.map((r) => ({ route: String(r.route), status: num(r.status), count: num(r.count), lastAt: String(r.last_at) }));
  }

  async recordError(route: string, status: number): Promise<void> {
    const at = now();
    await this.db.run(
      `INSERT INTO error_log (route, status, day, count, last_at) VALUES (?, ?, ?, 1, ?)
       ON CONFLICT (route, status, day) DO UPDATE SET count = error_log.count + 1, last_at = excluded.last_at`,
      [route.slice(0, 200), status, at.slice(0, 10), at],
    );
  }
}
