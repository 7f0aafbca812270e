// The StateStore: everything mutable, as one repository per concern over a
// shared SQL driver (sql.ts). Two drivers run the same statements and pass
// one contract suite (test/state/contract/): SQLite in DATA_DIR/state.sqlite
// (default) and PostgreSQL when DATABASE_URL=postgres://… .
//
// Rules every repository keeps:
// - counters and the cap-guarded spend are single atomic statements (INSERT …
//   ON CONFLICT … DO UPDATE … RETURNING): correct when several processes
//   share one PostgreSQL; writes that belong together run in one transaction;
// - nothing here ever receives a raw key or a raw client address: callers pass
//   hashes (key hash = SHA-256 hex, address hash = HMAC-SHA256 hex);
// - times are ISO 8601 UTC strings; money is integer yen.
import type { Queryer, SqlDatabase, SqlDriver } from './sql.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { advisorsRepository, type AdvisorsRepository } from './repositories/advisors.ts';
import { analyticsRepository, type AnalyticsRepository } from './repositories/analytics.ts';
import { billingCacheRepository, type BillingCacheRepository } from './repositories/billing-cache.ts';
import { countersRepository, type CountersRepository } from './repositories/counters.ts';
import { deviceCodesRepository, type DeviceCodesRepository } from './repositories/device-codes.ts';
import { feedbackRepository, type FeedbackRepository } from './repositories/feedback.ts';
import { issuanceRepository, type IssuanceRepository } from './repositories/issuance.ts';
import { keysRepository, type KeysRepository } from './repositories/keys.ts';
import { meterOutboxRepository, type MeterOutboxRepository } from './repositories/meter-outbox.ts';
import { referralsRepository, type ReferralsRepository } from './repositories/referrals.ts';
import { sessionsRepository, type SessionsRepository } from './repositories/sessions.ts';
import { settingsRepository, type SettingsRepository } from './repositories/settings.ts';
import { usageRepository, type UsageRepository } from './repositories/usage.ts';
import { webhooksRepository, type WebhooksRepository } from './repositories/webhooks.ts';
import { subscriptionsRepository, type SubscriptionsRepository } from './repositories/subscriptions.ts';
import { portalSessionsRepository, type PortalSessionsRepository } from './repositories/portal-sessions.ts';
import { changesRepository, type ChangesRepository } from './repositories/changes.ts';
import { savedSearchesRepository, type SavedSearchesRepository } from './repositories/saved-searches.ts';
import { webhookEndpointsRepository, type WebhookEndpointsRepository } from './repositories/webhook-endpoints.ts';
import { subscribersRepository, type SubscribersRepository } from './repositories/subscribers.ts';
import { leasesRepository, type LeasesRepository } from './repositories/leases.ts';
import { catalogVersionsRepository, type CatalogVersionsRepository } from './repositories/catalog-versions.ts';

/** The repositories, over the store itself or over one transaction (`atomically`). */
export interface Repositories {
  /** Settings the service creates for itself (salts, secrets). */
  readonly settings: SettingsRepository;
  /** API keys by hash, subscription and cap. */
  readonly keys: KeysRepository;
  /** Daily limits: atomic take-below-limit counters. */
  readonly counters: CountersRepository;
  /** Usage events with their cap-guarded monthly spend. */
  readonly usage: UsageRepository;
  /** Billable usage waiting for the payment provider. */
  readonly meterOutbox: MeterOutboxRepository;
  /** Provider webhook events (processed once) and payment failures. */
  readonly webhooks: WebhooksRepository;
  /** One key per checkout subscription, revealed once. */
  readonly issuance: IssuanceRepository;
  /** Cached billing history per customer. */
  readonly billingCache: BillingCacheRepository;
  /** Device authorization codes (RFC 8628). */
  readonly deviceCodes: DeviceCodesRepository;
  readonly advisors: AdvisorsRepository;
  readonly referrals: ReferralsRepository;
  readonly feedback: FeedbackRepository;
  /** Error log and the admin views (funnel, cohorts, errors). */
  readonly analytics: AnalyticsRepository;
  /** Browser sessions of the developer portal (hash of the session id -> key, expiry). */
  readonly sessions: SessionsRepository;
  /** Tombstones of ended subscriptions (no key is issued for them again). */
  readonly subscriptions: SubscriptionsRepository;
  /** Every billing-portal session opened. */
  readonly portalSessions: PortalSessionsRepository;
  /** Dataset versions, the latest state of every tracked record, the change feed. */
  readonly changes: ChangesRepository;
  /** Saved program searches and their matches. */
  readonly savedSearches: SavedSearchesRepository;
  /** Customer webhook endpoints and their delivery outbox. */
  readonly webhookEndpoints: WebhookEndpointsRepository;
  /** E-mail subscribers and their outbox. */
  readonly subscribers: SubscribersRepository;
  /** Named leases for singleton jobs (the outbound worker, a source's sync). */
  readonly leases: LeasesRepository;
  /** Dataset versions published through the store, the head servers follow, and what each server serves. */
  readonly catalogVersions: CatalogVersionsRepository;
}

export interface StateStore extends Repositories {
  readonly kind: 'sqlite' | 'postgres';
  /** Apply pending versioned migrations (idempotent; safe when several processes start at once). */
  migrate(): Promise<void>;
  /** True when the database answers; never throws. */
  ping(): Promise<boolean>;
  /** Versions applied in the database, and the versions this code knows. */
  migrationStatus(): Promise<{ applied: number[]; known: number[] }>;
  close(): Promise<void>;
  /**
   * Run `fn` in one transaction over repositories bound to it: everything it
   * writes commits together or not at all (e.g. a webhook's claim and its
   * effect). Inside, use only the repositories `fn` receives: on SQLite a call
   * on the store itself would wait for this very transaction.
   */
  atomically<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Call `listener` with the hashes of the keys changed, after every
   * committed change to a key made through this store (its own repositories
   * or a transaction of it); returns the unsubscribe. Changes made by other
   * processes are seen through `keys.generation()` and `keys.changedSince()`.
   */
  onKeysChanged(listener: (keyHashes: readonly string[]) => void): () => void;
}

/** A SqlDatabase whose statements run on one open transaction; a nested `tx` joins it. */
function inTransaction(driver: SqlDatabase, q: Queryer): SqlDatabase {
  return { kind: driver.kind, forUpdate: driver.forUpdate, skipLocked: driver.skipLocked, all: q.all, run: q.run, tx: (fn) => fn(q) };
}

function repositories(driver: SqlDatabase, keysChanged: (keyHashes: readonly string[]) => void): Repositories {
  return {
    settings: settingsRepository(driver),
    keys: keysRepository(driver, keysChanged),
    counters: countersRepository(driver),
    usage: usageRepository(driver),
    meterOutbox: meterOutboxRepository(driver),
    webhooks: webhooksRepository(driver),
    issuance: issuanceRepository(driver),
    billingCache: billingCacheRepository(driver),
    deviceCodes: deviceCodesRepository(driver),
    advisors: advisorsRepository(driver),
    referrals: referralsRepository(driver),
    feedback: feedbackRepository(driver),
    analytics: analyticsRepository(driver),
    sessions: sessionsRepository(driver),
    subscriptions: subscriptionsRepository(driver),
    portalSessions: portalSessionsRepository(driver),
    changes: changesRepository(driver),
    savedSearches: savedSearchesRepository(driver),
    webhookEndpoints: webhookEndpointsRepository(driver),
    subscribers: subscribersRepository(driver),
    leases: leasesRepository(driver),
    catalogVersions: catalogVersionsRepository(driver),
  };
}

/** The store over an open driver; call `migrate()` before use. */
export function createStateStore(driver: SqlDriver): StateStore {
  const listeners = new Set<(keyHashes: readonly string[]) => void>();
  const keysChanged = (keyHashes: readonly string[]) => {
    for (const listener of listeners) listener(keyHashes);
  };
  return {
    kind: driver.kind,
    migrate: () => driver.migrate(),
    ping: () => driver.ping().catch(() => false),
    migrationStatus: async () => ({
      applied: (await driver.all<{ version: unknown }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version)),
      known: MIGRATIONS.map((m) => m.version),
    }),
    close: () => driver.close(),
    async atomically(fn) {
      // A change to a key inside the transaction is announced once it has committed.
      const changed: string[] = [];
      const result = await driver.tx((q) => fn(repositories(inTransaction(driver, q), (hashes) => changed.push(...hashes))));
      if (changed.length) keysChanged(changed);
      return result;
    },
    onKeysChanged(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    ...repositories(driver, keysChanged),
  };
}
