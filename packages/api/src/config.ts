// Every setting the service reads from its environment, in one table:
// (name, default, help). `loadConfig` turns the environment into a frozen,
// typed object; nothing else in the code reads `process.env`.
// docs/settings.md is generated from this table and a test keeps them equal.
import { readFileSync, realpathSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
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
  {
    name: 'WEB_CONCURRENCY',
    default: 'available cores',
    help: 'Worker processes serving the port (node:cluster), each with its own read-only catalogue and state-store handle; the primary builds the catalogue and migrates the store before forking, restarts a crashed worker (with backoff) and serves the sum of their metrics. `1`: one process, no cluster.',
  },
  {
    name: 'REQUEST_TIMEOUT_SECONDS',
    default: '30',
    help: 'Time a client has to send a whole request (headers and body); a slower request is answered 408 and its connection closed. Checked every quarter of it (at most 30 s); 0 disables it.',
  },
  {
    name: 'HEADERS_TIMEOUT_SECONDS',
    default: '10',
    help: 'Time a client has to send the request line and headers, at most REQUEST_TIMEOUT_SECONDS; answered 408 like a slow body.',
  },
  {
    name: 'KEEP_ALIVE_TIMEOUT_SECONDS',
    default: '72',
    help: 'How long an idle keep-alive connection stays open; keep it longer than the idle timeout of a load balancer in front (often 60 s), so the balancer, not the server, closes idle connections.',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_SECONDS',
    default: '10',
    help: 'On SIGTERM or SIGINT: time in-flight requests have to finish before their connections are cut; usage and meter events are flushed after that and the process exits 0 (1 if the flush itself does not end within this time again).',
  },
  { name: 'DATA_DIR', default: './var', help: 'Directory holding catalog.sqlite and the default state.sqlite.' },
  { name: 'DATABASE_URL', default: null, help: 'postgres://… selects PostgreSQL for account/usage state; unset means SQLite in DATA_DIR.' },
  { name: 'DATASET_DIR', default: 'data/dataset (bundled)', help: 'JSONL (or .jsonl.gz) source directory for `ingest`.' },
  {
    name: 'NODE_ENV',
    default: null,
    help: '`production` refuses to start without IP_HASH_SALT, SERVER_SECRET (or their _FILE forms) and PUBLIC_BASE_URL, with a secret or ADMIN_API_KEY under 32 characters, with OUTBOUND_ALLOW_PRIVATE=true, or with a secret file inside DATA_DIR.',
  },
  {
    name: 'IP_HASH_SALT',
    default: null,
    help: "Master secret (32+ characters) from which each Japan-time day's HMAC-SHA256 salt for client addresses is derived; outside production a random one is persisted in the state store when unset.",
  },
  { name: 'IP_HASH_SALT_FILE', default: null, help: 'File holding IP_HASH_SALT (e.g. a mounted secret), read at start; keep it outside DATA_DIR.' },
  {
    name: 'ADMIN_API_KEY',
    default: null,
    help: 'Key for /v1/admin/*; when unset the admin endpoints answer 404. In production at least 32 characters; wrong keys count towards AUTH_FAILURE_LIMIT.',
  },
  { name: 'STRIPE_SECRET_KEY', default: null, help: 'Stripe secret key; without it checkout and portal answer 503.' },
  { name: 'STRIPE_WEBHOOK_SECRET', default: null, help: 'Secret used to verify the payment-signature header of webhooks.' },
  { name: 'STRIPE_PRICE_ID', default: null, help: 'Metered price used by checkout sessions.' },
  { name: 'STRIPE_METER_EVENT_NAME', default: 'api_requests', help: 'Billing Meter event name that usage is reported under.' },
  { name: 'STRIPE_API_BASE', default: null, help: 'Override of the Stripe API host, e.g. http://127.0.0.1:12111 for a local fake.' },
  { name: 'STRIPE_MAX_NETWORK_RETRIES', default: '2', help: 'Retries of a failed Stripe call inside the SDK (POSTs reuse one idempotency key).' },
  {
    name: 'STRIPE_METER_FLUSH_SECONDS',
    default: '5',
    help: 'Interval of the background flush of usage to Stripe Billing Meter events; 0 disables the timer (usage still flushes on close).',
  },
  {
    name: 'BILLING_HISTORY_CACHE_SECONDS',
    default: '300',
    help: 'How long /v1/me/billing_history serves invoices cached in the state store before asking Stripe again.',
  },
  { name: 'UNIT_PRICE_YEN', default: '3', help: 'Price of one billable request in whole yen, at least 1 (the figure the monthly cap is defined against).' },
  { name: 'ANON_DAILY_LIMIT', default: '100', help: 'Anonymous requests per client address (IPv4 /32, IPv6 /64) per Japan-time day.' },
  { name: 'FREE_DAILY_LIMIT', default: '100', help: 'Requests per free key per UTC day.' },
  {
    name: 'SUBSCRIBE_DAILY_LIMIT',
    default: '20',
    help: 'E-mail sign-ups (POST /v1/subscribers) per key (or address hash) per Japan-time day; an address also gets at most 3 confirmation mails a day.',
  },
  { name: 'FEEDBACK_DAILY_LIMIT', default: '10', help: 'Feedback submissions per key (or address hash) per day.' },
  { name: 'PORTAL_DAILY_LIMIT', default: '10', help: 'Billing-portal sessions per key (or client address) per Japan-time day.' },
  {
    name: 'CHECKOUT_DAILY_LIMIT',
    default: '20',
    help: 'Checkout sessions and key look-ups from a checkout (POST /v1/billing/checkout, POST /v1/billing/keys/from-checkout) per key (or client address) per Japan-time day, shared: each one is a call to Stripe.',
  },
  {
    name: 'WEBHOOK_TEST_DAILY_LIMIT',
    default: '50',
    help: 'Test requests (POST /v1/me/webhooks/{id}/test) per key per Japan-time day; besides, one test delivery at a time per endpoint.',
  },
  {
    name: 'AUTH_FAILURE_LIMIT',
    default: '20',
    help: 'Wrong API keys at POST /v1/session and wrong admin keys per client address per hour (UTC); past it both answer 429 until the hour ends, even to a right key.',
  },
  {
    name: 'WRITE_DAILY_LIMIT',
    default: '30',
    help: 'Writes open to anonymous callers (device authorize, advisor signup and track) per key (or client address) per Japan-time day, shared by those routes.',
  },
  { name: 'MCP_MAX_BATCH', default: '10', help: 'JSON-RPC messages one POST /mcp may carry; a larger batch is refused before anything runs.' },
  {
    name: 'BILLING_RETURN_URL_ORIGINS',
    default: null,
    help: 'Comma list of further https origins (https://shop.example.jp) that the redirect URLs of billing (checkout success_url and cancel_url, the portal return_url) may point to, besides the origin of PUBLIC_BASE_URL, which is always allowed.',
  },
  {
    name: 'TRUST_PROXY',
    default: null,
    help: "Which hops of X-Forwarded-For to trust, as Fastify's trustProxy defines: a hop count (`1`), or a comma list of addresses and CIDRs (`10.0.0.0/8,192.0.2.7`, also `loopback`, `linklocal`, `uniquelocal`), or `true` (every hop: only behind a proxy that overwrites the header). Unset, empty, `false` or `0`: the socket address.",
  },
  {
    name: 'TRUST_FORWARDED_HOST',
    default: 'false',
    help: 'true: believe X-Forwarded-Host from trusted proxies. Otherwise the header is dropped; public links come from PUBLIC_BASE_URL only.',
  },
  {
    name: 'PUBLIC_BASE_URL',
    default: 'http://HOST:PORT',
    help: "Public origin of the service (e.g. https://api.example.jp), used for links it hands out such as the device flow's verification_uri; never taken from the Host header.",
  },
  {
    name: 'METRICS_PORT',
    default: null,
    help: 'When set, /metrics is also served without a key on this port (0: any free port), meant for a private network; with several workers the cluster primary serves the sum of all workers there. Otherwise /metrics needs ADMIN_API_KEY.',
  },
  { name: 'METRICS_HOST', default: '127.0.0.1', help: 'Address the METRICS_PORT listener binds to.' },
  { name: 'LOG_LEVEL', default: 'info', help: 'pino log level (fatal, error, warn, info, debug, trace, silent).' },
  {
    name: 'SERVER_SECRET',
    default: null,
    help: 'Secret (32+ characters) for encrypting one-time key reveals, webhook signing secrets and subscriber addresses, and for the unsubscribe tokens; outside production a random one is persisted in the state store when unset.',
  },
  {
    name: 'SMTP_URL',
    default: null,
    help: 'smtp:// or smtps:// URL of the mail relay for subscriber e-mail (nodemailer); unset means POST /v1/subscribers answers 503.',
  },
  { name: 'MAIL_FROM', default: 'JP Support Programs <no-reply@localhost>', help: 'From address of subscriber e-mail.' },
  {
    name: 'OUTBOUND_ALLOW_PRIVATE',
    default: 'false',
    help: 'true allows webhook targets in private, loopback, link-local and other special-purpose ranges, and plain http (development and tests only).',
  },
  {
    name: 'OUTBOUND_INTERVAL_SECONDS',
    default: '5',
    help: 'Interval of the outbound worker (webhook deliveries, e-mail digests); 0 disables the timer. One process at a time runs it (a lease in the state store).',
  },
  { name: 'WEBHOOK_MAX_ATTEMPTS', default: '8', help: 'Attempts of one webhook delivery before it is marked failed.' },
  {
    name: 'WEBHOOK_RETRY_BASE_SECONDS',
    default: '30',
    help: 'First retry delay of a failed webhook delivery; doubled on each further attempt (capped at 6 hours).',
  },
  {
    name: 'WEBHOOK_DISABLE_AFTER',
    default: '15',
    help: 'Consecutive failed delivery attempts after which a webhook endpoint is disabled (the reason is shown in GET /v1/me/webhooks).',
  },
  { name: 'WEBHOOK_TIMEOUT_SECONDS', default: '10', help: 'Time allowed for a webhook receiver to answer.' },
  { name: 'DIGEST_INTERVAL_HOURS', default: '24', help: 'Least time between two digests to one subscriber.' },
  {
    name: 'EXPORT_MAX_ROWS',
    default: '10000',
    help: 'Most rows of one CSV or JSONL export; each started 100 rows count as one request for quota and billing.',
  },
  {
    name: 'MCP_TOOLSETS',
    default: null,
    help: 'Comma-separated optional toolsets served at /mcp besides the 55 tools (e.g. informed: change feed, saved searches, calendars).',
  },
  { name: 'SERVER_SECRET_FILE', default: null, help: 'File holding SERVER_SECRET, read at start; keep it outside DATA_DIR.' },
  {
    name: 'SEALED_KEY_TTL_HOURS',
    default: '72',
    help: 'Hours a key issued by a webhook waits, encrypted, for its one reveal through from-checkout; afterwards the sealed copy is erased.',
  },
  {
    name: 'JGRANTS_API_BASE',
    default: 'https://api.jgrants-portal.go.jp/exp/v1/public',
    help: 'Base URL of the jGrants public API read by `cli sync jgrants` (tests point it at a local fake).',
  },
  { name: 'JGRANTS_RATE', default: '2', help: 'Requests per second `sync jgrants` sends at most (the API is public and keyless: stay polite).' },
  {
    name: 'JGRANTS_KEYWORDS',
    default: '補助金,助成金,支援金',
    help: 'Comma list of keywords `sync jgrants` pages through (the API needs a keyword of 2+ characters).',
  },
  {
    name: 'JGRANTS_ACCEPTANCE',
    default: '1',
    help: 'Comma list of acceptance states `sync jgrants` asks for: `1` open for applications, `0` every programme.',
  },
  { name: 'EGOV_API_BASE', default: 'https://laws.e-gov.go.jp/api/2', help: 'Base URL of the e-Gov 法令API v2 read by `cli sync egov`.' },
  { name: 'EGOV_RATE', default: '2', help: 'Requests per second `sync egov` sends at most.' },
  {
    name: 'SYNC_MAX_RETRIES',
    default: '5',
    help: 'Retries of one source request after a 429, a 5xx or a network error (exponential backoff; a Retry-After is honoured).',
  },
  {
    name: 'SYNC_MAX_BAD_SHARE',
    default: '0.05',
    help: 'Share of records (0 to 1) a sync may set aside as malformed and still publish the rest; over it (or with one field missing from most records, or a changed envelope) it publishes nothing and exits 3. One record is always tolerated.',
  },
  {
    name: 'CATALOG_FOLLOW_SECONDS',
    default: '5',
    help: 'With DATABASE_URL: how often a server checks the shared store for a newly published dataset version, then pulls it, builds its own catalogue and swaps it in (0: only at start).',
  },
  {
    name: 'CATALOG_POLL_SECONDS',
    default: '5',
    help: 'How often a serving process checks DATA_DIR/catalog.sqlite for a new catalogue besides fs.watch (0: watch only); a new one is opened and swapped in without a restart.',
  },
  {
    name: 'SESSION_TTL_SECONDS',
    default: '28800',
    help: 'Lifetime of a browser session of the developer portal (POST /v1/session), at least 60; the cookie expires with it.',
  },
];

export interface Config {
  port: number;
  host: string;
  /** Worker processes (1: no cluster). */
  webConcurrency: number;
  /** 0: no limit. */
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  shutdownTimeoutSeconds: number;
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
  subscribeDailyLimit: number;
  portalDailyLimit: number;
  checkoutDailyLimit: number;
  webhookTestDailyLimit: number;
  authFailureLimit: number;
  mcpMaxBatch: number;
  metricsPort: number | null;
  metricsHost: string;
  writeDailyLimit: number;
  /** Further https origins billing redirect URLs may use, besides PUBLIC_BASE_URL's; null: none. */
  billingReturnUrlOrigins: string[] | null;
  /** Fastify's trustProxy: false, true, a hop count or a list of addresses/CIDRs. */
  trustProxy: TrustProxy;
  trustForwardedHost: boolean;
  publicBaseUrl: string;
  production: boolean;
  sealedKeyTtlHours: number;
  logLevel: string;
  serverSecret: string | null;
  sessionTtlSeconds: number;
  smtpUrl: string | null;
  mailFrom: string;
  outboundAllowPrivate: boolean;
  outboundIntervalSeconds: number;
  webhookMaxAttempts: number;
  webhookRetryBaseSeconds: number;
  webhookDisableAfter: number;
  webhookTimeoutSeconds: number;
  digestIntervalHours: number;
  exportMaxRows: number;
  mcpToolsets: string[];
  jgrantsApiBase: string;
  jgrantsRate: number;
  jgrantsKeywords: string[];
  jgrantsAcceptance: string[];
  egovApiBase: string;
  egovRate: number;
  syncMaxRetries: number;
  syncMaxBadShare: number;
  catalogFollowSeconds: number;
  catalogPollSeconds: number;
}

export class ConfigError extends Error {}

export type TrustProxy = boolean | number | string[];

/** proxy-addr's named ranges, accepted in a TRUST_PROXY list. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One address or CIDR of a TRUST_PROXY list, checked. */
function trustedEntry(entry: string): string {
  if (NAMED_RANGES.has(entry)) return entry;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  const max = family === 4 ? 32 : 128;
  const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
  if (!family || rest.length || !bitsOk) {
    throw new ConfigError(`TRUST_PROXY: ${JSON.stringify(entry)} is not an address, a CIDR or loopback/linklocal/uniquelocal`);
  }
  return entry;
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` reads it: unset, `false` or `0` ->
 * false (the socket address is the client); `true` -> every hop; a positive
 * integer -> that many hops from the socket; otherwise a comma list of
 * addresses and CIDRs. Anything else is refused at start.
 */
export function parseTrustProxy(raw: string | null): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map(trustedEntry);
}

function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
}

/** An smtp:// or smtps:// URL (it may carry a password: the error never repeats it). */
function readSmtpUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = readString(env, name);
  if (raw === null) return null;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(`${name} must be an absolute URL`);
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError(`${name} must start with smtp:// or smtps://`);
  return raw;
}

/** A secret from NAME or from the file named by NAME_FILE (one of the two). */
function readSecret(env: NodeJS.ProcessEnv, name: string): string | null {
  const direct = readString(env, name);
  const file = readString(env, `${name}_FILE`);
  if (direct && file) throw new ConfigError(`set ${name} or ${name}_FILE, not both`);
  if (!file) return direct;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    throw new ConfigError(`${name}_FILE: cannot read ${file}`);
  }
  if (!text) throw new ConfigError(`${name}_FILE: ${file} is empty`);
  return text;
}

const MIN_SECRET_LENGTH = 32;

/** An http(s) origin without path, query or fragment (a trailing slash is dropped). */
function readOrigin(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = readString(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username) {
    throw new ConfigError(`${name} must be an http(s) URL without query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

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

/** A share between 0 and 1 inclusive. */
function readShare(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = readNumber(env, name, fallback);
  if (n > 1) throw new ConfigError(`${name} must be a share between 0 and 1, got ${JSON.stringify(env[name])}`);
  return n;
}

/** A comma list of non-empty strings (the fallback when unset). */
function readList(env: NodeJS.ProcessEnv, name: string, fallback: string[]): string[] {
  const raw = readString(env, name);
  if (raw === null) return fallback;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw new ConfigError(`${name} must list at least one value`);
  return list;
}

function readString(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

/** A comma list of https origins, each checked and reduced to its origin. */
function readOriginList(env: NodeJS.ProcessEnv, name: string): string[] | null {
  const raw = readString(env, name);
  if (raw === null) return null;
  return raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new ConfigError(`${name}: ${JSON.stringify(entry)} is not an absolute URL`);
      }
      if (url.protocol !== 'https:' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
        throw new ConfigError(`${name}: ${JSON.stringify(entry)} must be an https origin such as https://shop.example.jp`);
      }
      return url.origin;
    });
}

/** `file` resolved through symbolic links as far as it exists. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * What production refuses besides missing secrets (issue 24, L5): plain http
 * and private webhook targets (OUTBOUND_ALLOW_PRIVATE is for development and
 * tests), and a secret file inside DATA_DIR, beside the state it protects
 * (a backup or a copy of the data directory would carry the key with it).
 */
function checkProductionSafety(env: NodeJS.ProcessEnv, dataDir: string): void {
  if (readBool(env, 'OUTBOUND_ALLOW_PRIVATE', false)) {
    throw new ConfigError('OUTBOUND_ALLOW_PRIVATE=true is for development and tests; NODE_ENV=production refuses it');
  }
  const data = realPath(dataDir);
  for (const name of ['IP_HASH_SALT_FILE', 'SERVER_SECRET_FILE']) {
    const file = readString(env, name);
    if (file === null) continue;
    const relative = path.relative(data, realPath(file));
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
      throw new ConfigError(`${name} points inside DATA_DIR (${dataDir}); keep secret files outside it in production`);
    }
  }
}

/** Build the configuration from an environment (default: the process's). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const databaseUrl = readString(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const production = readString(env, 'NODE_ENV') === 'production';
  const port = readInt(env, 'PORT', 8080);
  const host = readString(env, 'HOST') ?? '127.0.0.1';
  const ipHashSalt = readSecret(env, 'IP_HASH_SALT');
  const serverSecret = readSecret(env, 'SERVER_SECRET');
  const publicBaseUrl = readOrigin(env, 'PUBLIC_BASE_URL');
  if (production) {
    // Secrets must not sit in the state store beside what they protect (address hashes, sealed keys).
    const missing = [!ipHashSalt && 'IP_HASH_SALT', !serverSecret && 'SERVER_SECRET', !publicBaseUrl && 'PUBLIC_BASE_URL'].filter(Boolean);
    if (missing.length) throw new ConfigError(`NODE_ENV=production needs ${missing.join(', ')} (secrets may come from *_FILE)`);
  }
  const adminApiKey = readString(env, 'ADMIN_API_KEY');
  for (const [name, value] of [
    ['IP_HASH_SALT', ipHashSalt],
    ['SERVER_SECRET', serverSecret],
    ['ADMIN_API_KEY', adminApiKey],
  ] as const) {
    if (production && value !== null && value.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`${name} must be at least ${MIN_SECRET_LENGTH} characters in production`);
    }
  }
  const dataDir = path.resolve(readString(env, 'DATA_DIR') ?? './var');
  if (production) checkProductionSafety(env, dataDir);
  const requestTimeoutSeconds = readNumber(env, 'REQUEST_TIMEOUT_SECONDS', 30);
  const headersTimeoutSeconds = readNumber(env, 'HEADERS_TIMEOUT_SECONDS', Math.min(10, requestTimeoutSeconds || 10));
  if (headersTimeoutSeconds <= 0) throw new ConfigError('HEADERS_TIMEOUT_SECONDS must be greater than 0');
  if (requestTimeoutSeconds > 0 && headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  }
  const config: Config = {
    port,
    host,
    webConcurrency: readInt(env, 'WEB_CONCURRENCY', availableParallelism(), 1),
    requestTimeoutSeconds,
    headersTimeoutSeconds,
    keepAliveTimeoutSeconds: readNumber(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 72),
    shutdownTimeoutSeconds: readNumber(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10),
    dataDir,
    databaseUrl,
    datasetDir: path.resolve(readString(env, 'DATASET_DIR') ?? BUNDLED_DATASET_DIR),
    ipHashSalt,
    adminApiKey,
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
    subscribeDailyLimit: readInt(env, 'SUBSCRIBE_DAILY_LIMIT', 20),
    portalDailyLimit: readInt(env, 'PORTAL_DAILY_LIMIT', 10),
    checkoutDailyLimit: readInt(env, 'CHECKOUT_DAILY_LIMIT', 20),
    webhookTestDailyLimit: readInt(env, 'WEBHOOK_TEST_DAILY_LIMIT', 50),
    authFailureLimit: readInt(env, 'AUTH_FAILURE_LIMIT', 20, 1),
    mcpMaxBatch: readInt(env, 'MCP_MAX_BATCH', 10, 1),
    metricsPort: readString(env, 'METRICS_PORT') === null ? null : readInt(env, 'METRICS_PORT', 0),
    metricsHost: readString(env, 'METRICS_HOST') ?? '127.0.0.1',
    writeDailyLimit: readInt(env, 'WRITE_DAILY_LIMIT', 30),
    billingReturnUrlOrigins: readOriginList(env, 'BILLING_RETURN_URL_ORIGINS'),
    trustProxy: parseTrustProxy(readString(env, 'TRUST_PROXY')),
    trustForwardedHost: readBool(env, 'TRUST_FORWARDED_HOST', false),
    publicBaseUrl: publicBaseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    production,
    sealedKeyTtlHours: readInt(env, 'SEALED_KEY_TTL_HOURS', 72, 1),
    logLevel: readString(env, 'LOG_LEVEL') ?? 'info',
    serverSecret,
    sessionTtlSeconds: readInt(env, 'SESSION_TTL_SECONDS', 28_800, 60),
    smtpUrl: readSmtpUrl(env, 'SMTP_URL'),
    mailFrom: readString(env, 'MAIL_FROM') ?? 'JP Support Programs <no-reply@localhost>',
    outboundAllowPrivate: readBool(env, 'OUTBOUND_ALLOW_PRIVATE', false),
    outboundIntervalSeconds: readNumber(env, 'OUTBOUND_INTERVAL_SECONDS', 5),
    webhookMaxAttempts: readInt(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1),
    webhookRetryBaseSeconds: readNumber(env, 'WEBHOOK_RETRY_BASE_SECONDS', 30),
    webhookDisableAfter: readInt(env, 'WEBHOOK_DISABLE_AFTER', 15, 1),
    webhookTimeoutSeconds: readNumber(env, 'WEBHOOK_TIMEOUT_SECONDS', 10),
    digestIntervalHours: readNumber(env, 'DIGEST_INTERVAL_HOURS', 24),
    exportMaxRows: readInt(env, 'EXPORT_MAX_ROWS', 10_000, 1),
    mcpToolsets: (readString(env, 'MCP_TOOLSETS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    jgrantsApiBase: readOrigin(env, 'JGRANTS_API_BASE') ?? 'https://api.jgrants-portal.go.jp/exp/v1/public',
    jgrantsRate: readNumber(env, 'JGRANTS_RATE', 2),
    jgrantsKeywords: readList(env, 'JGRANTS_KEYWORDS', ['補助金', '助成金', '支援金']),
    jgrantsAcceptance: readList(env, 'JGRANTS_ACCEPTANCE', ['1']),
    egovApiBase: readOrigin(env, 'EGOV_API_BASE') ?? 'https://laws.e-gov.go.jp/api/2',
    egovRate: readNumber(env, 'EGOV_RATE', 2),
    syncMaxRetries: readInt(env, 'SYNC_MAX_RETRIES', 5),
    syncMaxBadShare: readShare(env, 'SYNC_MAX_BAD_SHARE', 0.05),
    catalogFollowSeconds: readNumber(env, 'CATALOG_FOLLOW_SECONDS', 5),
    catalogPollSeconds: readNumber(env, 'CATALOG_POLL_SECONDS', 5),
    ...overrides,
  };
  return Object.freeze(config);
}

/** The API's version, from its package.json (the one place it is written). */
export const SERVER_VERSION: string = packageJson.version;
