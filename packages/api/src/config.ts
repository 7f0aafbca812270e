// Every setting the service reads from its environment, declared once as a
// typed row: the variable, the Config property it becomes, its default as
// documented, its help and the reader that parses it. The Config type, the
// object `loadConfig` builds and docs/settings.md all come from these rows
// (a test keeps the committed page equal); nothing else in the code reads
// `process.env` (docs/decisions/0320-settings-rows.md).
import { readFileSync, realpathSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../package.json' with { type: 'json' };

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUNDLED_DATASET_DIR = path.join(REPO_ROOT, 'data', 'dataset');

export class ConfigError extends Error {}

type Env = NodeJS.ProcessEnv;

/** What a reader knows of its row: the variable and its documented default. */
interface SettingText {
  name: string;
  default: string | null;
}

/** Turns the environment into one setting's value, or throws a ConfigError naming the variable. */
type Reader<T> = (env: Env, setting: SettingText) => T;

/** Parses a set, non-empty value of variable `name`. */
type Parser<T> = (raw: string, name: string) => T;

export interface Setting<K extends string | null = string | null, T = unknown> extends SettingText {
  /** The Config property (null: read by another row, e.g. a secret's *_FILE form). */
  key: K;
  /** The default as docs/settings.md shows it (null: unset). */
  default: string | null;
  help: string;
  read: Reader<T>;
}

/** One row; the key and the reader's type are kept for the Config type. */
function setting<const K extends string | null, T>(row: Setting<K, T>): Setting<K, T> {
  return row;
}

/** The variable's value; unset and empty are the same. */
function given(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

/** The value, or the documented default parsed the same way when unset. */
function defaulted<T>(parse: Parser<T>): Reader<T> {
  return (env, s) => {
    const raw = given(env, s.name) ?? s.default;
    if (raw === null) throw new Error(`${s.name} has no default to fall back to`);
    return parse(raw, s.name);
  };
}

/** The value, or null when unset. */
function optional<T>(parse: Parser<T>): Reader<T | null> {
  return (env, s) => {
    const raw = given(env, s.name);
    return raw === null ? null : parse(raw, s.name);
  };
}

/** The value, or one worked out when unset (the documented default describes it in words). */
function fallbackTo<T>(parse: Parser<T>, fallback: (env: Env) => T): Reader<T> {
  return (env, s) => {
    const raw = given(env, s.name);
    return raw === null ? fallback(env) : parse(raw, s.name);
  };
}

const text: Parser<string> = (raw) => raw;

/** A directory, made absolute. */
const directory: Parser<string> = (raw) => path.resolve(raw);

function integer(min = 0): Parser<number> {
  return (raw, name) => {
    if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
    const n = Number(raw);
    if (n < min) throw new ConfigError(`${name} must be at least ${min}`);
    return n;
  };
}

const number: Parser<number> = (raw, name) => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
};

/** A share between 0 and 1 inclusive. */
const share: Parser<number> = (raw, name) => {
  const n = number(raw, name);
  if (n > 1) throw new ConfigError(`${name} must be a share between 0 and 1, got ${JSON.stringify(raw)}`);
  return n;
};

/** true/1/yes or false/0/no; blank counts as unset. */
const flag: Reader<boolean> = (env, s) => {
  const raw = env[s.name]?.trim().toLowerCase() || (s.default ?? '');
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${s.name} must be true or false, got ${JSON.stringify(env[s.name])}`);
};

/** A comma list of names, possibly empty. */
const names: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** A comma list of at least one non-empty value. */
const list: Parser<string[]> = (raw, name) => {
  const values = names(raw, name);
  if (values.length === 0) throw new ConfigError(`${name} must list at least one value`);
  return values;
};

const postgresUrl: Parser<string> = (raw) => {
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  return raw;
};

/** An smtp:// or smtps:// URL (it may carry a password: the error never repeats it). */
const smtpUrl: Parser<string> = (raw, name) => {
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(`${name} must be an absolute URL`);
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError(`${name} must start with smtp:// or smtps://`);
  return raw;
};

/** An http(s) origin without query or fragment (a trailing slash is dropped). */
const origin: Parser<string> = (raw, name) => {
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
};

/** A comma list of https origins, each checked and reduced to its origin. */
const httpsOrigins: Parser<string[]> = (raw, name) =>
  names(raw, name).map((entry) => {
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

/** A secret from NAME or from the file named by NAME_FILE (one of the two). */
const secret: Reader<string | null> = (env, s) => {
  const direct = given(env, s.name);
  const file = given(env, `${s.name}_FILE`);
  if (direct && file) throw new ConfigError(`set ${s.name} or ${s.name}_FILE, not both`);
  if (!file) return direct;
  let content: string;
  try {
    content = readFileSync(file, 'utf8').trim();
  } catch {
    throw new ConfigError(`${s.name}_FILE: cannot read ${file}`);
  }
  if (!content) throw new ConfigError(`${s.name}_FILE: ${file} is empty`);
  return content;
};

/** A secret's *_FILE form: read by the secret's own row. */
const fileOfSecret: Reader<undefined> = () => undefined;

/** The origin a server listening on host:port answers at. */
function localOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

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

// The rows other rows' defaults are worked out from.
const PORT = setting({ name: 'PORT', key: 'port', default: '8080', help: 'TCP port to listen on.', read: defaulted(integer()) });

const HOST = setting({ name: 'HOST', key: 'host', default: '127.0.0.1', help: 'Address to listen on.', read: defaulted(text) });

const REQUEST_TIMEOUT = setting({
  name: 'REQUEST_TIMEOUT_SECONDS',
  key: 'requestTimeoutSeconds',
  default: '30',
  help: 'Time a client has to send a whole request (headers and body); a slower request is answered 408 and its connection closed. Checked every quarter of it (at most 30 s); 0 disables it.',
  read: defaulted(number),
});

export const SETTINGS = [
  PORT,
  HOST,
  setting({
    name: 'WEB_CONCURRENCY',
    key: 'webConcurrency',
    default: 'available cores',
    help: 'Worker processes serving the port (node:cluster), each with its own read-only catalogue and state-store handle; the primary builds the catalogue and migrates the store before forking, restarts a crashed worker (with backoff) and serves the sum of their metrics. `1`: one process, no cluster.',
    read: fallbackTo(integer(1), () => availableParallelism()),
  }),
  REQUEST_TIMEOUT,
  setting({
    name: 'HEADERS_TIMEOUT_SECONDS',
    key: 'headersTimeoutSeconds',
    default: '10',
    help: 'Time a client has to send the request line and headers, at most REQUEST_TIMEOUT_SECONDS; answered 408 like a slow body.',
    read: fallbackTo(number, (env) => Math.min(10, REQUEST_TIMEOUT.read(env, REQUEST_TIMEOUT) || 10)),
  }),
  setting({
    name: 'KEEP_ALIVE_TIMEOUT_SECONDS',
    key: 'keepAliveTimeoutSeconds',
    default: '72',
    help: 'How long an idle keep-alive connection stays open; keep it longer than the idle timeout of a load balancer in front (often 60 s), so the balancer, not the server, closes idle connections.',
    read: defaulted(number),
  }),
  setting({
    name: 'SHUTDOWN_TIMEOUT_SECONDS',
    key: 'shutdownTimeoutSeconds',
    default: '10',
    help: 'On SIGTERM or SIGINT: time in-flight requests have to finish before their connections are cut; usage and meter events are flushed after that and the process exits 0 (1 if the flush itself does not end within this time again).',
    read: defaulted(number),
  }),
  setting({
    name: 'DATA_DIR',
    key: 'dataDir',
    default: './var',
    help: 'Directory holding catalog.sqlite and the default state.sqlite.',
    read: defaulted(directory),
  }),
  setting({
    name: 'DATABASE_URL',
    key: 'databaseUrl',
    default: null,
    help: 'postgres://… selects PostgreSQL for account/usage state; unset means SQLite in DATA_DIR.',
    read: optional(postgresUrl),
  }),
  setting({
    name: 'DATASET_DIR',
    key: 'datasetDir',
    default: 'data/dataset (bundled)',
    help: 'JSONL (or .jsonl.gz) source directory for `ingest`.',
    read: fallbackTo(directory, () => BUNDLED_DATASET_DIR),
  }),
  setting({
    name: 'NODE_ENV',
    key: 'production',
    default: null,
    help: '`production` refuses to start without IP_HASH_SALT, SERVER_SECRET (or their _FILE forms) and PUBLIC_BASE_URL, with a secret or ADMIN_API_KEY under 32 characters, with OUTBOUND_ALLOW_PRIVATE=true, or with a secret file inside DATA_DIR.',
    read: (env, s) => given(env, s.name) === 'production',
  }),
  setting({
    name: 'IP_HASH_SALT',
    key: 'ipHashSalt',
    default: null,
    help: "Master secret (32+ characters) from which each Japan-time day's HMAC-SHA256 salt for client addresses is derived; outside production a random one is persisted in the state store when unset.",
    read: secret,
  }),
  setting({
    name: 'IP_HASH_SALT_FILE',
    key: null,
    default: null,
    help: 'File holding IP_HASH_SALT (e.g. a mounted secret), read at start; keep it outside DATA_DIR.',
    read: fileOfSecret,
  }),
  setting({
    name: 'ADMIN_API_KEY',
    key: 'adminApiKey',
    default: null,
    help: 'Key for /v1/admin/*; when unset the admin endpoints answer 404. In production at least 32 characters; wrong keys count towards AUTH_FAILURE_LIMIT.',
    read: optional(text),
  }),
  setting({
    name: 'STRIPE_SECRET_KEY',
    key: 'stripeSecretKey',
    default: null,
    help: 'Stripe secret key; without it checkout and portal answer 503.',
    read: optional(text),
  }),
  setting({
    name: 'STRIPE_WEBHOOK_SECRET',
    key: 'stripeWebhookSecret',
    default: null,
    help: 'Secret used to verify the payment-signature header of webhooks.',
    read: optional(text),
  }),
  setting({ name: 'STRIPE_PRICE_ID', key: 'stripePriceId', default: null, help: 'Metered price used by checkout sessions.', read: optional(text) }),
  setting({
    name: 'STRIPE_METER_EVENT_NAME',
    key: 'stripeMeterEventName',
    default: 'api_requests',
    help: 'Billing Meter event name that usage is reported under.',
    read: defaulted(text),
  }),
  setting({
    name: 'STRIPE_API_BASE',
    key: 'stripeApiBase',
    default: null,
    help: 'Override of the Stripe API host, e.g. http://127.0.0.1:12111 for a local fake.',
    read: optional(text),
  }),
  setting({
    name: 'STRIPE_MAX_NETWORK_RETRIES',
    key: 'stripeMaxNetworkRetries',
    default: '2',
    help: 'Retries of a failed Stripe call inside the SDK (POSTs reuse one idempotency key).',
    read: defaulted(integer()),
  }),
  setting({
    name: 'STRIPE_METER_FLUSH_SECONDS',
    key: 'stripeMeterFlushSeconds',
    default: '5',
    help: 'Interval of the background flush of usage to Stripe Billing Meter events; 0 disables the timer (usage still flushes on close).',
    read: defaulted(number),
  }),
  setting({
    name: 'BILLING_HISTORY_CACHE_SECONDS',
    key: 'billingHistoryCacheSeconds',
    default: '300',
    help: 'How long /v1/me/billing_history serves invoices cached in the state store before asking Stripe again.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'UNIT_PRICE_YEN',
    key: 'unitPriceYen',
    default: '3',
    help: 'Price of one billable request in whole yen, at least 1 (the figure the monthly cap is defined against).',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'ANON_DAILY_LIMIT',
    key: 'anonDailyLimit',
    default: '100',
    help: 'Anonymous requests per client address (IPv4 /32, IPv6 /64) per Japan-time day.',
    read: defaulted(integer()),
  }),
  setting({ name: 'FREE_DAILY_LIMIT', key: 'freeDailyLimit', default: '100', help: 'Requests per free key per UTC day.', read: defaulted(integer()) }),
  setting({
    name: 'SUBSCRIBE_DAILY_LIMIT',
    key: 'subscribeDailyLimit',
    default: '20',
    help: 'E-mail sign-ups (POST /v1/subscribers) per key (or address hash) per Japan-time day; an address also gets at most 3 confirmation mails a day.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'FEEDBACK_DAILY_LIMIT',
    key: 'feedbackDailyLimit',
    default: '10',
    help: 'Feedback submissions per key (or address hash) per day.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'PORTAL_DAILY_LIMIT',
    key: 'portalDailyLimit',
    default: '10',
    help: 'Billing-portal sessions per key (or client address) per Japan-time day.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'CHECKOUT_DAILY_LIMIT',
    key: 'checkoutDailyLimit',
    default: '20',
    help: 'Checkout sessions and key look-ups from a checkout (POST /v1/billing/checkout, POST /v1/billing/keys/from-checkout) per key (or client address) per Japan-time day, shared: each one is a call to Stripe.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'WEBHOOK_TEST_DAILY_LIMIT',
    key: 'webhookTestDailyLimit',
    default: '50',
    help: 'Test requests (POST /v1/me/webhooks/{id}/test) per key per Japan-time day; besides, one test delivery at a time per endpoint.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'AUTH_FAILURE_LIMIT',
    key: 'authFailureLimit',
    default: '20',
    help: 'Wrong API keys at POST /v1/session and wrong admin keys per client address per hour (UTC); past it both answer 429 until the hour ends, even to a right key.',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'WRITE_DAILY_LIMIT',
    key: 'writeDailyLimit',
    default: '30',
    help: 'Writes open to anonymous callers (device authorize, advisor signup and track) per key (or client address) per Japan-time day, shared by those routes.',
    read: defaulted(integer()),
  }),
  setting({
    name: 'MCP_MAX_BATCH',
    key: 'mcpMaxBatch',
    default: '10',
    help: 'JSON-RPC messages one POST /mcp may carry; a larger batch is refused before anything runs.',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'BILLING_RETURN_URL_ORIGINS',
    key: 'billingReturnUrlOrigins',
    default: null,
    help: 'Comma list of further https origins (https://shop.example.jp) that the redirect URLs of billing (checkout success_url and cancel_url, the portal return_url) may point to, besides the origin of PUBLIC_BASE_URL, which is always allowed.',
    read: optional(httpsOrigins),
  }),
  setting({
    name: 'TRUST_PROXY',
    key: 'trustProxy',
    default: null,
    help: "Which hops of X-Forwarded-For to trust, as Fastify's trustProxy defines: a hop count (`1`), or a comma list of addresses and CIDRs (`10.0.0.0/8,192.0.2.7`, also `loopback`, `linklocal`, `uniquelocal`), or `true` (every hop: only behind a proxy that overwrites the header). Unset, empty, `false` or `0`: the socket address.",
    read: (env, s) => parseTrustProxy(given(env, s.name)),
  }),
  setting({
    name: 'TRUST_FORWARDED_HOST',
    key: 'trustForwardedHost',
    default: 'false',
    help: 'true: believe X-Forwarded-Host from trusted proxies. Otherwise the header is dropped; public links come from PUBLIC_BASE_URL only.',
    read: flag,
  }),
  setting({
    name: 'PUBLIC_BASE_URL',
    key: 'publicBaseUrl',
    default: 'http://HOST:PORT',
    help: "Public origin of the service (e.g. https://api.example.jp), used for links it hands out such as the device flow's verification_uri; never taken from the Host header.",
    read: fallbackTo(origin, (env) => localOrigin(HOST.read(env, HOST), PORT.read(env, PORT))),
  }),
  setting({
    name: 'METRICS_PORT',
    key: 'metricsPort',
    default: null,
    help: 'When set, /metrics is also served without a key on this port (0: any free port), meant for a private network; with several workers the cluster primary serves the sum of all workers there. Otherwise /metrics needs ADMIN_API_KEY.',
    read: optional(integer()),
  }),
  setting({ name: 'METRICS_HOST', key: 'metricsHost', default: '127.0.0.1', help: 'Address the METRICS_PORT listener binds to.', read: defaulted(text) }),
  setting({
    name: 'LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    help: 'pino log level (fatal, error, warn, info, debug, trace, silent).',
    read: defaulted(text),
  }),
  setting({
    name: 'SERVER_SECRET',
    key: 'serverSecret',
    default: null,
    help: 'Secret (32+ characters) for encrypting one-time key reveals, webhook signing secrets and subscriber addresses, and for the unsubscribe tokens; outside production a random one is persisted in the state store when unset.',
    read: secret,
  }),
  setting({
    name: 'SMTP_URL',
    key: 'smtpUrl',
    default: null,
    help: 'smtp:// or smtps:// URL of the mail relay for subscriber e-mail (nodemailer); unset means POST /v1/subscribers answers 503.',
    read: optional(smtpUrl),
  }),
  setting({
    name: 'MAIL_FROM',
    key: 'mailFrom',
    default: 'JP Support Programs <no-reply@localhost>',
    help: 'From address of subscriber e-mail.',
    read: defaulted(text),
  }),
  setting({
    name: 'OUTBOUND_ALLOW_PRIVATE',
    key: 'outboundAllowPrivate',
    default: 'false',
    help: 'true allows webhook targets in private, loopback, link-local and other special-purpose ranges, and plain http (development and tests only).',
    read: flag,
  }),
  setting({
    name: 'OUTBOUND_INTERVAL_SECONDS',
    key: 'outboundIntervalSeconds',
    default: '5',
    help: 'Interval of the outbound worker (webhook deliveries, e-mail digests); 0 disables the timer. One process at a time runs it (a lease in the state store).',
    read: defaulted(number),
  }),
  setting({
    name: 'WEBHOOK_MAX_ATTEMPTS',
    key: 'webhookMaxAttempts',
    default: '8',
    help: 'Attempts of one webhook delivery before it is marked failed.',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'WEBHOOK_RETRY_BASE_SECONDS',
    key: 'webhookRetryBaseSeconds',
    default: '30',
    help: 'First retry delay of a failed webhook delivery; doubled on each further attempt (capped at 6 hours).',
    read: defaulted(number),
  }),
  setting({
    name: 'WEBHOOK_DISABLE_AFTER',
    key: 'webhookDisableAfter',
    default: '15',
    help: 'Consecutive failed delivery attempts after which a webhook endpoint is disabled (the reason is shown in GET /v1/me/webhooks).',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'WEBHOOK_TIMEOUT_SECONDS',
    key: 'webhookTimeoutSeconds',
    default: '10',
    help: 'Time allowed for a webhook receiver to answer.',
    read: defaulted(number),
  }),
  setting({
    name: 'DIGEST_INTERVAL_HOURS',
    key: 'digestIntervalHours',
    default: '24',
    help: 'Least time between two digests to one subscriber.',
    read: defaulted(number),
  }),
  setting({
    name: 'EXPORT_MAX_ROWS',
    key: 'exportMaxRows',
    default: '10000',
    help: 'Most rows of one CSV or JSONL export; each started 100 rows count as one request for quota and billing.',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'MCP_TOOLSETS',
    key: 'mcpToolsets',
    default: null,
    help: 'Comma-separated optional toolsets served at /mcp besides the default tools (e.g. informed: change feed, saved searches, calendars).',
    read: fallbackTo(names, () => []),
  }),
  setting({
    name: 'SERVER_SECRET_FILE',
    key: null,
    default: null,
    help: 'File holding SERVER_SECRET, read at start; keep it outside DATA_DIR.',
    read: fileOfSecret,
  }),
  setting({
    name: 'SEALED_KEY_TTL_HOURS',
    key: 'sealedKeyTtlHours',
    default: '72',
    help: 'Hours a key issued by a webhook waits, encrypted, for its one reveal through from-checkout; afterwards the sealed copy is erased.',
    read: defaulted(integer(1)),
  }),
  setting({
    name: 'JGRANTS_API_BASE',
    key: 'jgrantsApiBase',
    default: 'https://api.jgrants-portal.go.jp/exp/v1/public',
    help: 'Base URL of the jGrants public API read by `cli sync jgrants` (tests point it at a local fake).',
    read: defaulted(origin),
  }),
  setting({
    name: 'JGRANTS_RATE',
    key: 'jgrantsRate',
    default: '2',
    help: 'Requests per second `sync jgrants` sends at most (the API is public and keyless: stay polite).',
    read: defaulted(number),
  }),
  setting({
    name: 'JGRANTS_KEYWORDS',
    key: 'jgrantsKeywords',
    default: '補助金,助成金,支援金',
    help: 'Comma list of keywords `sync jgrants` pages through (the API needs a keyword of 2+ characters).',
    read: defaulted(list),
  }),
  setting({
    name: 'JGRANTS_ACCEPTANCE',
    key: 'jgrantsAcceptance',
    default: '1',
    help: 'Comma list of acceptance states `sync jgrants` asks for: `1` open for applications, `0` every programme.',
    read: defaulted(list),
  }),
  setting({
    name: 'EGOV_API_BASE',
    key: 'egovApiBase',
    default: 'https://laws.e-gov.go.jp/api/2',
    help: 'Base URL of the e-Gov 法令API v2 read by `cli sync egov`.',
    read: defaulted(origin),
  }),
  setting({ name: 'EGOV_RATE', key: 'egovRate', default: '2', help: 'Requests per second `sync egov` sends at most.', read: defaulted(number) }),
  setting({
    name: 'SYNC_MAX_RETRIES',
    key: 'syncMaxRetries',
    default: '5',
    help: 'Retries of one source request after a 429, a 5xx or a network error (exponential backoff; a Retry-After is honoured).',
    read: defaulted(integer()),
  }),
  setting({
    name: 'SYNC_MAX_BAD_SHARE',
    key: 'syncMaxBadShare',
    default: '0.05',
    help: 'Share of records (0 to 1) a sync may set aside as malformed and still publish the rest; over it (or with one field missing from most records, or a changed envelope) it publishes nothing and exits 3. One record is always tolerated.',
    read: defaulted(share),
  }),
  setting({
    name: 'CATALOG_FOLLOW_SECONDS',
    key: 'catalogFollowSeconds',
    default: '5',
    help: 'With DATABASE_URL: how often a server checks the shared store for a newly published dataset version, then pulls it, builds its own catalogue and swaps it in (0: only at start).',
    read: defaulted(number),
  }),
  setting({
    name: 'CATALOG_POLL_SECONDS',
    key: 'catalogPollSeconds',
    default: '5',
    help: 'How often a serving process checks DATA_DIR/catalog.sqlite for a new catalogue besides fs.watch (0: watch only); a new one is opened and swapped in without a restart.',
    read: defaulted(number),
  }),
  setting({
    name: 'SESSION_TTL_SECONDS',
    key: 'sessionTtlSeconds',
    default: '28800',
    help: 'Lifetime of a browser session of the developer portal (POST /v1/session), at least 60; the cookie expires with it.',
    read: defaulted(integer(60)),
  }),
] as const;

type SettingRow = (typeof SETTINGS)[number];

/** The typed configuration: one property per row with a key, of its reader's type. */
export type Config = {
  [Row in SettingRow as Row['key'] extends string ? Row['key'] : never]: ReturnType<Row['read']>;
};

const MIN_SECRET_LENGTH = 32;

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
function checkProductionSafety(env: Env, config: Config): void {
  if (config.outboundAllowPrivate) {
    throw new ConfigError('OUTBOUND_ALLOW_PRIVATE=true is for development and tests; NODE_ENV=production refuses it');
  }
  const data = realPath(config.dataDir);
  for (const name of ['IP_HASH_SALT_FILE', 'SERVER_SECRET_FILE']) {
    const file = given(env, name);
    if (file === null) continue;
    const relative = path.relative(data, realPath(file));
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
      throw new ConfigError(`${name} points inside DATA_DIR (${config.dataDir}); keep secret files outside it in production`);
    }
  }
}

/** The rules between settings, checked once every row is read. */
function checkTogether(env: Env, config: Config): void {
  if (config.production) {
    // Secrets must not sit in the state store beside what they protect (address hashes, sealed keys).
    const missing = [
      !config.ipHashSalt && 'IP_HASH_SALT',
      !config.serverSecret && 'SERVER_SECRET',
      given(env, 'PUBLIC_BASE_URL') === null && 'PUBLIC_BASE_URL',
    ].filter(Boolean);
    if (missing.length) throw new ConfigError(`NODE_ENV=production needs ${missing.join(', ')} (secrets may come from *_FILE)`);
    for (const [name, value] of [
      ['IP_HASH_SALT', config.ipHashSalt],
      ['SERVER_SECRET', config.serverSecret],
      ['ADMIN_API_KEY', config.adminApiKey],
    ] as const) {
      if (value !== null && value.length < MIN_SECRET_LENGTH) {
        throw new ConfigError(`${name} must be at least ${MIN_SECRET_LENGTH} characters in production`);
      }
    }
    checkProductionSafety(env, config);
  }
  if (config.headersTimeoutSeconds <= 0) throw new ConfigError('HEADERS_TIMEOUT_SECONDS must be greater than 0');
  if (config.requestTimeoutSeconds > 0 && config.headersTimeoutSeconds > config.requestTimeoutSeconds) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS must not exceed REQUEST_TIMEOUT_SECONDS');
  }
}

/** Build the configuration from an environment (default: the process's). */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Readonly<Config> {
  const values: Record<string, unknown> = {};
  for (const row of SETTINGS as readonly Setting[]) {
    if (row.key !== null) values[row.key] = row.read(env, row);
  }
  const config = values as Config;
  checkTogether(env, config);
  return Object.freeze({ ...config, ...overrides });
}

/** The API's version, from its package.json (the one place it is written). */
export const SERVER_VERSION: string = packageJson.version;
