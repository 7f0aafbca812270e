// Every setting the service reads from its environment, in one table:
// (name, default, help). `loadConfig` turns the environment into a frozen,
// typed object; nothing else in the code reads `process.env`.
// docs/settings.md is generated from this table and a test keeps them equal.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../package.json' with { type: 'json' };

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUNDLED_DATASET_DIR = path.join(REPO_ROOT, 'data', 'dataset');

export interface Setting {
  name: string;
  default: string | null;
  help: string;
}

export const SETTINGS: readonly Setting[] = [
  { name: 'PORT', default: '8080', help: 'TCP port to listen on.' },
  { name: 'HOST', default: '127.0.0.1', help: 'Address to listen on.' },
  { name: 'DATA_DIR', default: './var', help: 'Directory holding catalog.sqlite and the default state.sqlite.' },
  { name: 'DATABASE_URL', default: null, help: 'postgres://… selects PostgreSQL for account/usage state; unset means SQLite in DATA_DIR.' },
  { name: 'DATASET_DIR', default: 'data/dataset (bundled)', help: 'JSONL (or .jsonl.gz) source directory for `ingest`.' },
  { name: 'IP_HASH_SALT', default: null, help: 'HMAC-SHA256 salt for client addresses; random and persisted in the state store when unset.' },
  { name: 'ADMIN_API_KEY', default: null, help: 'Key for /v1/admin/*; when unset the admin endpoints answer 404.' },
  { name: 'STRIPE_SECRET_KEY', default: null, help: 'Stripe secret key; without it checkout and portal answer 503.' },
  { name: 'STRIPE_WEBHOOK_SECRET', default: null, help: 'Secret used to verify the payment-signature header of webhooks.' },
  { name: 'STRIPE_PRICE_ID', default: null, help: 'Metered price used by checkout sessions.' },
  { name: 'STRIPE_METER_EVENT_NAME', default: 'api_requests', help: 'Billing Meter event name that usage is reported under.' },
  { name: 'STRIPE_API_BASE', default: null, help: 'Override of the Stripe API host, e.g. http://127.0.0.1:12111 for a local fake.' },
  { name: 'STRIPE_MAX_NETWORK_RETRIES', default: '2', help: 'Retries of a failed Stripe call inside the SDK (POSTs reuse one idempotency key).' },
  { name: 'STRIPE_METER_FLUSH_SECONDS', default: '5', help: 'Interval of the background flush of usage to Stripe Billing Meter events; 0 disables the timer (usage still flushes on close).' },
  { name: 'BILLING_HISTORY_CACHE_SECONDS', default: '300', help: 'How long /v1/me/billing_history serves invoices cached in the state store before asking Stripe again.' },
  { name: 'UNIT_PRICE_YEN', default: '3', help: 'Price of one billable request in whole yen, at least 1 (the figure the monthly cap is defined against).' },
  { name: 'ANON_DAILY_LIMIT', default: '100', help: 'Anonymous requests per client address (IPv4 /32, IPv6 /64) per Japan-time day.' },
  { name: 'FREE_DAILY_LIMIT', default: '100', help: 'Requests per free key per UTC day.' },
  { name: 'FEEDBACK_DAILY_LIMIT', default: '10', help: 'Feedback submissions per key (or address hash) per day.' },
  { name: 'TRUST_PROXY', default: null, help: "When set, the client address is taken from X-Forwarded-For as Fastify's trustProxy defines." },
  { name: 'LOG_LEVEL', default: 'info', help: 'pino log level (fatal, error, warn, info, debug, trace, silent).' },
  { name: 'SERVER_SECRET', default: null, help: 'Secret for encrypting one-time key reveals; random and persisted in the state store when unset.' },
  { name: 'SESSION_TTL_SECONDS', default: '28800', help: 'Lifetime of a browser session of the developer portal (POST /v1/session), at least 60; the cookie expires with it.' },
];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  datasetDir: string;
  ipHashSalt: string | null;
  adminApiKey: string | null;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripePriceId: string | null;
  stripeMeterEventName: string;
  stripeApiBase: string | null;
  stripeMaxNetworkRetries: number;
  stripeMeterFlushSeconds: number;
  billingHistoryCacheSeconds: number;
  unitPriceYen: number;
  anonDailyLimit: number;
  freeDailyLimit: number;
  feedbackDailyLimit: number;
  trustProxy: boolean;
  logLevel: string;
  serverSecret: string | null;
  sessionTtlSeconds: number;
}

export class ConfigError extends Error {}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min) throw new ConfigError(`${name} must be at least ${min}`);
  return n;
}

function readNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
}

function readString(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

/** Build the configuration from an environment (default: the process's). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const databaseUrl = readString(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const config: Config = {
    port: readInt(env, 'PORT', 8080),
    host: readString(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(readString(env, 'DATA_DIR') ?? './var'),
    databaseUrl,
    datasetDir: path.resolve(readString(env, 'DATASET_DIR') ?? BUNDLED_DATASET_DIR),
    ipHashSalt: readString(env, 'IP_HASH_SALT'),
    adminApiKey: readString(env, 'ADMIN_API_KEY'),
    stripeSecretKey: readString(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: readString(env, 'STRIPE_WEBHOOK_SECRET'),
    stripePriceId: readString(env, 'STRIPE_PRICE_ID'),
    stripeMeterEventName: readString(env, 'STRIPE_METER_EVENT_NAME') ?? 'api_requests',
    stripeApiBase: readString(env, 'STRIPE_API_BASE'),
    stripeMaxNetworkRetries: readInt(env, 'STRIPE_MAX_NETWORK_RETRIES', 2),
    stripeMeterFlushSeconds: readNumber(env, 'STRIPE_METER_FLUSH_SECONDS', 5),
    billingHistoryCacheSeconds: readInt(env, 'BILLING_HISTORY_CACHE_SECONDS', 300),
    // Whole yen: usage and spend are stored as integers.
    unitPriceYen: readInt(env, 'UNIT_PRICE_YEN', 3, 1),
    anonDailyLimit: readInt(env, 'ANON_DAILY_LIMIT', 100),
    freeDailyLimit: readInt(env, 'FREE_DAILY_LIMIT', 100),
    feedbackDailyLimit: readInt(env, 'FEEDBACK_DAILY_LIMIT', 10),
    trustProxy: readString(env, 'TRUST_PROXY') !== null,
    logLevel: readString(env, 'LOG_LEVEL') ?? 'info',
    serverSecret: readString(env, 'SERVER_SECRET'),
    sessionTtlSeconds: readInt(env, 'SESSION_TTL_SECONDS', 28_800, 60),
    ...overrides,
  };
  return Object.freeze(config);
}

/** The API's version, from its package.json (the one place it is written). */
export const SERVER_VERSION: string = packageJson.version;
