// The StateStore: everything mutable (keys, counters, usage events, caps,
// feedback, webhook events, device codes, checkout issuance, meter outbox,
// billing cache, advisors). Two implementations pass one contract suite
// (test/state/contract.ts): SQLite in DATA_DIR/state.sqlite (default) and
// PostgreSQL when DATABASE_URL=postgres://… .
//
// Rules every implementation keeps:
// - counters are single atomic statements (INSERT … ON CONFLICT … DO UPDATE …
//   RETURNING): correct when several processes share one PostgreSQL;
// - nothing here ever receives a raw key or a raw client address: callers pass
//   hashes (key hash = SHA-256 hex, address hash = HMAC-SHA256 hex);
// - times are ISO 8601 UTC strings; money is integer yen.

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

/** Result of an atomic "take one if below the limit" on a counter. */
export interface CounterResult {
  allowed: boolean;
  /** Count after this call (unchanged when not allowed). */
  count: number;
}

export interface UsageEvent {
  /** Stable unique id (UUID); also the Stripe meter event identifier, so a retry never bills twice. */
  eventId: string;
  keyId: number | null;
  customerId: string | null;
  tier: Tier | 'anonymous';
  method: string;
  route: string;
  status: number;
  billable: boolean;
  /** Yen charged for this event (0 when not billable). */
  amountYen: number;
  /** Japan-time month `YYYY-MM` the event is billed in. */
  billingMonth: string;
  createdAt: string;
}

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

export interface MeterOutboxItem {
  eventId: string;
  customerId: string;
  /** Unix seconds of the usage. */
  timestamp: number;
  value: number;
  attempts: number;
}

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

export interface CheckoutIssuance {
  subscriptionId: string;
  customerId: string | null;
  keyId: number;
  /** Encrypted plaintext of a key issued by a webhook, for a single reveal via from-checkout; null once revealed. */
  sealedKey: string | null;
  /** Set once from-checkout revealed (or issued) the key: later calls answer 409. */
  revealedAt: string | null;
}

export interface AdvisorRecord {
  id: number;
  firmName: string;
  firmType: string;
  specialties: string[];
  prefecture: string;
  fields: Record<string, unknown>;
  /** Key hash of the advisor's own API key (dashboard auth); internal. */
  ownerKeyHash: string | null;
  stripeAccountId: string | null;
  disabledReason: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

export interface ReferralRecord {
  id: number;
  advisorId: number;
  tokenHash: string;
  tokenPrefix: string;
  sourceProgramId: string | null;
  clickedAt: string | null;
  convertedAt: string | null;
  conversionValueYen: number | null;
  commissionYen: number | null;
  commissionPaidAt: string | null;
}

export interface StateStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Apply pending versioned migrations (idempotent; safe when several processes start at once). */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;

  /** A persistent setting; `create` runs once, the first writer wins across processes. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;

  // Keys
  createKey(input: NewApiKey): Promise<ApiKeyRecord>;
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  findKeyById(id: number): Promise<ApiKeyRecord | null>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Revoke by id or by visible prefix; returns the number revoked. */
  revokeKey(idOrPrefix: number | string): Promise<number>;
  revokeKeysForSubscription(subscriptionId: string): Promise<number>;
  findKeyBySubscription(subscriptionId: string): Promise<ApiKeyRecord | null>;
  setSubscriptionStatus(subscriptionId: string, status: string): Promise<void>;
  setMonthlyCap(keyId: number, capYen: number | null): Promise<void>;

  // Counters (daily limits, feedback limits)
  /** Atomically increment `scope`/`subject`/`window` unless it already reached `limit`. */
  takeCounter(scope: string, subject: string, window: string, limit: number): Promise<CounterResult>;
  peekCounter(scope: string, subject: string, window: string): Promise<number>;

  // Usage and spend
  /**
   * Record a usage event. When `capYen` is set and the event is billable, the
   * insert happens only if the month's spend stays within the cap (one
   * atomic statement); returns false (nothing written) when it would not.
   * Billable events of customers are queued in the meter outbox in the same
   * transaction.
   */
  recordUsage(event: UsageEvent, capYen: number | null): Promise<boolean>;
  /** Yen spent by a key in a Japan-time month `YYYY-MM`. */
  monthlySpend(keyId: number, billingMonth: string): Promise<number>;
  usageSummary(keyId: number, billingMonth: string): Promise<{
    requests: number;
    billableRequests: number;
    spendYen: number;
    perDay: { date: string; requests: number; billable: number }[];
    topEndpoints: { route: string; requests: number }[];
  }>;

  // Meter outbox (usage to Stripe)
  pendingMeterEvents(limit: number): Promise<MeterOutboxItem[]>;
  markMeterEventsSent(eventIds: string[]): Promise<void>;
  markMeterEventsFailed(eventIds: string[], error: string): Promise<void>;

  // Feedback
  insertFeedback(input: FeedbackInput): Promise<number>;

  // Webhooks: each provider event id is processed once.
  /** True when this call claimed the event (first time seen); false for a replay. */
  claimWebhookEvent(eventId: string, type: string): Promise<boolean>;
  /** Undo a claim whose processing failed, so the provider's retry processes the event again. */
  releaseWebhookEvent(eventId: string): Promise<void>;
  recordPaymentFailure(customerId: string | null, subscriptionId: string | null, invoiceId: string | null): Promise<void>;

  // Checkout issuance (one key per subscription)
  findIssuance(subscriptionId: string): Promise<CheckoutIssuance | null>;
  /** Create the issuance row; false when one already exists for the subscription (another path won). */
  createIssuance(issuance: CheckoutIssuance): Promise<boolean>;
  /** Atomically mark revealed and drop the sealed key; returns the sealed key if this call did it, else null. */
  revealIssuance(subscriptionId: string): Promise<{ sealedKey: string | null } | null>;

  // Billing history cache
  getBillingCache(customerId: string): Promise<{ payload: string; cachedAt: string } | null>;
  putBillingCache(customerId: string, payload: string): Promise<string>;

  // Device authorization (RFC 8628)
  createDeviceCode(record: DeviceCodeRecord): Promise<void>;
  findDeviceCodeByHash(deviceCodeHash: string): Promise<DeviceCodeRecord | null>;
  findDeviceCodeByUserCode(userCode: string): Promise<DeviceCodeRecord | null>;
  updateDeviceCode(deviceCodeHash: string, patch: Partial<DeviceCodeRecord>): Promise<void>;
  /** Atomically move a code from status `from` to `to` (with an optional key/sealed-key change); true when this call did it. */
  transitionDeviceCode(
    deviceCodeHash: string,
    from: DeviceCodeRecord['status'],
    to: DeviceCodeRecord['status'],
    patch?: { sealedKey?: string | null; keyId?: number | null },
  ): Promise<boolean>;

  // Advisors and referrals
  createAdvisor(input: Omit<AdvisorRecord, 'id' | 'createdAt'>): Promise<AdvisorRecord>;
  getAdvisor(id: number): Promise<AdvisorRecord | null>;
  listAdvisors(filter: { prefecture?: string; specialty?: string; firmType?: string; verifiedOnly: boolean; limit: number; offset: number }): Promise<{ total: number; rows: AdvisorRecord[] }>;
  verifyAdvisor(id: number, ownerKeyHash: string | null): Promise<boolean>;
  createReferral(input: Omit<ReferralRecord, 'id'>): Promise<ReferralRecord>;
  findReferralByTokenHash(tokenHash: string): Promise<ReferralRecord | null>;
  convertReferral(tokenHash: string, conversionValueYen: number | null, commissionYen: number): Promise<ReferralRecord | null>;
  listReferrals(advisorId: number): Promise<ReferralRecord[]>;

  // Admin
  adminFunnel(days: number): Promise<{ date: string; tier: string; requests: number }[]>;
  adminCohorts(): Promise<{ month: string; keys: number; active: number }[]>;
  adminErrors(limit: number): Promise<{ route: string; status: number; count: number; lastAt: string }[]>;
  /** Count one 4xx/5xx answer of a route pattern (no address, no key: route and status only). */
  recordError(route: string, status: number): Promise<void>;
}
