// The client: one request core (URL, headers, per-attempt timeout, one retry
// policy, error mapping) that every resource method goes through. Resources
// never touch the transport; the transport never decides about retries.
import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, JpSupportError, parseRetryAfterSeconds } from './errors.ts';
import { fetchTransport, type Transport, type TransportResponse } from './transport.ts';
import type { CallOptions, HttpMethod, QueryParams, QueryScalar, RequestCore, RequestOptions } from './request-options.ts';
import { Programs } from './resources/programs.ts';
import { Exclusions } from './resources/exclusions.ts';
import { Billing } from './resources/billing.ts';
import { Me } from './resources/me.ts';
import { Device } from './resources/device.ts';
import { RecordSet } from './resources/record-set.ts';
import { Laws } from './resources/laws.ts';
import { Advisors } from './resources/advisors.ts';
import { AM } from './resources/am.ts';
import { Changes } from './resources/changes.ts';
import { Calendar, SavedSearches, Subscribers, Webhooks } from './resources/alerts.ts';
import type { FeedbackRequest, FeedbackResponse, Meta, Ping, Attribution } from './resources/types.ts';

/**
 * The client's version. A constant, not read from package.json: the package is
 * compiled to dist/ and may run in a browser; test/version.test.ts keeps the
 * two equal.
 */
export const VERSION = '0.2.0';

export type { CallOptions, HttpMethod, QueryParams, QueryScalar, QueryValue, RequestOptions } from './request-options.ts';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ClientOptions {
  /** Service address, e.g. `https://api.example.jp` (required unless `transport` is given). */
  baseUrl?: string;
  /** API key; without one, calls are anonymous (free tier). */
  apiKey?: string | null;
  /** How the key is sent: `X-API-Key: <key>` (default) or `Authorization: Bearer <key>`. */
  authScheme?: 'x-api-key' | 'bearer';
  /** Per-attempt timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2, so at most 3 attempts). */
  maxRetries?: number;
  /** `fetch` implementation for the default HTTP transport (default: the global one). */
  fetch?: typeof fetch;
  /** A transport other than HTTP, e.g. `injectTransport(app)`; `fetch` is then unused. */
  transport?: Transport;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** Longest server-requested wait (`Retry-After`) the client sleeps through, in seconds (default 60); longer ones are reported at once. */
  maxRetryAfterSeconds?: number;
  /** How the client waits between attempts (default: an abortable `setTimeout`); tests inject a recorder. */
  sleep?: Sleep;
}

export interface APIResponse<T> {
  data: T;
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/** Client of the Japanese public support programs API. */
export class JpSupportClient implements RequestCore {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterSeconds: number;
  readonly authScheme: 'x-api-key' | 'bearer';
  readonly #apiKey: string | null;
  readonly #defaultHeaders: Record<string, string>;
  readonly #transport: Transport;
  readonly #sleep: Sleep;

  readonly programs: Programs;
  readonly exclusions: Exclusions;
  readonly billing: Billing;
  readonly me: Me;
  readonly device: Device;
  // The record sets: one generic resource each (resources/record-set.ts).
  readonly loans: RecordSet<'searchLoans', 'getLoan'>;
  readonly taxRulesets: RecordSet<'searchTaxRulesets', 'getTaxRuleset'>;
  readonly enforcement: RecordSet<'searchEnforcement', 'getEnforcement'>;
  readonly laws: Laws;
  readonly caseStudies: RecordSet<'searchCaseStudies', 'getCaseStudy'>;
  readonly certifications: RecordSet<'searchCertifications', 'getCertification'>;
  readonly bids: RecordSet<'searchBids', 'getBid'>;
  readonly advisors: Advisors;
  readonly am: AM;
  readonly changes: Changes;
  readonly savedSearches: SavedSearches;
  readonly webhooks: Webhooks;
  readonly subscribers: Subscribers;
  readonly calendar: Calendar;

  constructor(options: ClientOptions = {}) {
    if (!options.baseUrl && !options.transport) throw new JpSupportError('baseUrl is required (or pass a transport).');
    const base = options.baseUrl ?? 'http://localhost';
    let parsed: URL;
    try {
      parsed = new URL(base);
    } catch {
      throw new JpSupportError(`baseUrl is not an absolute URL: ${base}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new JpSupportError(`baseUrl must be http(s): ${base}`);
    this.baseUrl = base.replace(/\/+$/, '');
    this.timeoutMs = nonNegative(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.maxRetries = Math.floor(nonNegative(options.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries'));
    this.maxRetryAfterSeconds = nonNegative(options.maxRetryAfterSeconds, 60, 'maxRetryAfterSeconds');
    this.authScheme = options.authScheme ?? 'x-api-key';
    if (this.authScheme !== 'x-api-key' && this.authScheme !== 'bearer') throw new JpSupportError(`authScheme must be 'x-api-key' or 'bearer'`);
    this.#apiKey = options.apiKey || null;
    this.#defaultHeaders = lowerKeys(options.defaultHeaders ?? {});
    this.#transport = options.transport ?? fetchTransport(options.fetch ?? globalThis.fetch);
    this.#sleep = options.sleep ?? sleep;

    this.programs = new Programs(this);
    this.exclusions = new Exclusions(this);
    this.billing = new Billing(this);
    this.me = new Me(this);
    this.device = new Device(this);
    this.loans = new RecordSet(this, 'loans');
    this.taxRulesets = new RecordSet(this, 'tax_rulesets');
    this.enforcement = new RecordSet(this, 'enforcement');
    this.laws = new Laws(this, 'laws');
    this.caseStudies = new RecordSet(this, 'case_studies');
    this.certifications = new RecordSet(this, 'certifications');
    this.bids = new RecordSet(this, 'bids');
    this.advisors = new Advisors(this);
    this.am = new AM(this);
    this.changes = new Changes(this);
    this.savedSearches = new SavedSearches(this);
    this.webhooks = new Webhooks(this);
    this.subscribers = new Subscribers(this);
    this.calendar = new Calendar(this);
  }

  /** A copy with some options changed (e.g. another key, or no retries). */
  withOptions(options: ClientOptions): JpSupportClient {
    return new JpSupportClient({
      baseUrl: this.baseUrl,
      apiKey: this.#apiKey,
      authScheme: this.authScheme,
      timeoutMs: this.timeoutMs,
      maxRetries: this.maxRetries,
      maxRetryAfterSeconds: this.maxRetryAfterSeconds,
      transport: this.#transport,
      defaultHeaders: this.#defaultHeaders,
      sleep: this.#sleep,
      ...options,
    });
  }

  // ---- endpoints without a resource group -------------------------------

  /** GET /meta: dataset statistics (unversioned; for monitoring, not business logic). */
  meta(options?: CallOptions): Promise<Meta> {
    return this.get('/meta', options);
  }

  /** GET /v1/ping: authentication and remaining free-tier quota. */
  ping(options?: CallOptions): Promise<Ping> {
    return this.get('/v1/ping', options);
  }

  /** GET /v1/attribution: the data licence attribution block. */
  attribution(options?: CallOptions): Promise<Attribution> {
    return this.get('/v1/attribution', options);
  }

  /** GET /v1/openapi.json: the published OpenAPI 3.1 document. */
  openapi(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.get('/v1/openapi.json', options);
  }

  /** POST /v1/feedback: send a message (and optional 1–5 rating) to the operators. Not retried on 5xx. */
  feedback(body: FeedbackRequest, options?: CallOptions): Promise<FeedbackResponse> {
    return this.post('/v1/feedback', { body, ...options });
  }

  // ---- request core -----------------------------------------------------

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, options);
  }

  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  /** Low-level call of any endpoint; resolves with the parsed JSON body. */
  async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.requestWithResponse<T>(method, path, options)).data;
  }

  /** Like `request`, plus status, headers and request id of the answer. */
  async requestWithResponse<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<APIResponse<T>> {
    const url = this.buildUrl(path, options.query);
    const headers = this.buildHeaders(options);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const timeoutMs = nonNegative(options.timeoutMs, this.timeoutMs, 'timeoutMs');
    const maxRetries = Math.floor(nonNegative(options.maxRetries, this.maxRetries, 'maxRetries'));
    const safeToRepeat = method === 'GET' || method === 'HEAD' || options.idempotent === true || options.retryNonIdempotent === true;
    const callerSignal = options.signal ?? undefined;
    const sentRequestId = headers['x-request-id'] ?? null;

    for (let attempt = 0; ; attempt++) {
      if (callerSignal?.aborted) throw new APIUserAbortError(undefined, { cause: callerSignal.reason, requestId: sentRequestId });
      const retriesLeft = maxRetries - attempt;

      let response: TransportResponse;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`Request timed out after ${timeoutMs} ms.`, 'TimeoutError'));
      }, timeoutMs);
      const onCallerAbort = () => controller.abort(callerSignal?.reason);
      callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      try {
        response = await this.#transport({ method, url, headers: { ...headers }, body, signal: controller.signal });
      } catch (cause) {
        if (callerSignal?.aborted) throw new APIUserAbortError(undefined, { cause, requestId: sentRequestId });
        const error = timedOut
          ? new APITimeoutError(`Request timed out after ${timeoutMs} ms.`, { cause, requestId: sentRequestId })
          : new APIConnectionError(`Connection error: ${describe(cause)}`, { cause, requestId: sentRequestId });
        if (retriesLeft > 0 && safeToRepeat) {
          await this.#wait(backoffDelay(attempt), callerSignal, sentRequestId);
          continue;
        }
        throw error;
      } finally {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onCallerAbort);
      }

      const requestId = response.headers['x-request-id'] ?? null;
      if (response.status >= 200 && response.status < 300) {
        return { data: parseSuccess<T>(response), status: response.status, headers: response.headers, requestId };
      }

      const error = APIError.generate(response.status, parseErrorBody(response), response.headers);
      const retryable = response.status === 429 || (response.status >= 500 && safeToRepeat);
      if (retryable && retriesLeft > 0) {
        const retryAfter = parseRetryAfterSeconds(response.headers);
        // A server-requested wait beyond the cap (a daily limit resetting at
        // midnight) is reported at once instead of slept through.
        if (retryAfter === null || retryAfter <= this.maxRetryAfterSeconds) {
          await this.#wait(retryAfter === null ? backoffDelay(attempt) : retryAfter * 1000, callerSignal, sentRequestId);
          continue;
        }
      }
      throw error;
    }
  }

  /** `baseUrl` + path + query; path segments `.` and `..` are rejected. */
  buildUrl(path: string, query?: QueryParams): string {
    if (!path.startsWith('/')) throw new JpSupportError(`path must start with '/': ${path}`);
    const [pathname, existing] = splitOnce(path, '?');
    for (const segment of pathname.split('/')) {
      const decoded = segment.replace(/%2e/gi, '.');
      if (decoded === '.' || decoded === '..') throw new JpSupportError(`path must not contain '.' or '..' segments: ${pathname}`);
    }
    const params = new URLSearchParams(existing ?? '');
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) {
        for (const v of value as readonly QueryScalar[]) if (v !== undefined && v !== null) params.append(key, String(v));
      } else {
        params.append(key, String(value));
      }
    }
    const qs = params.toString();
    return `${this.baseUrl}${pathname}${qs ? `?${qs}` : ''}`;
  }

  private buildHeaders(options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.#defaultHeaders };
    if (this.#apiKey) {
      if (this.authScheme === 'bearer') headers.authorization = `Bearer ${this.#apiKey}`;
      else headers['x-api-key'] = this.#apiKey;
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === undefined) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    if (options.requestId !== undefined) headers['x-request-id'] = options.requestId;
    return headers;
  }

  async #wait(ms: number, signal: AbortSignal | undefined, requestId: string | null): Promise<void> {
    try {
      await this.#sleep(ms, signal);
    } catch (cause) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause, requestId });
      throw cause;
    }
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason, requestId });
  }
}

/** Exponential backoff before retry number `attempt + 1`: 500 ms, 1 s, 2 s, … capped at 8 s, minus up to 25 % jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
  return Math.round(base * (1 - 0.25 * random()));
}

/** `setTimeout` as a promise, rejected early when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function parseSuccess<T>(response: TransportResponse): T {
  if (response.status === 204 || response.body === '') return undefined as T;
  if (!isJson(response)) return response.body as T;
  try {
    return JSON.parse(response.body) as T;
  } catch (cause) {
    throw new JpSupportError(`Response of status ${response.status} is not valid JSON.`, { cause });
  }
}

function parseErrorBody(response: TransportResponse): unknown {
  if (response.body === '') return null;
  try {
    return JSON.parse(response.body);
  } catch {
    return response.body;
  }
}

function isJson(response: TransportResponse): boolean {
  const type = response.headers['content-type'];
  return type === undefined || /[/+]json\b/i.test(type);
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new JpSupportError(`${name} must be a non-negative number`);
  return value;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const inner =
      cause instanceof Error ? cause.message : typeof cause === 'object' && cause && 'code' in cause ? String((cause as { code: unknown }).code) : '';
    return inner && inner !== err.message ? `${err.message} (${inner})` : err.message;
  }
  return String(err);
}
