// The error tree. Every failure the client raises is a `JpSupportError`:
// an HTTP answer that is not 2xx becomes an `APIError` subclass picked by
// status (`APIError.generate`); a request that never got an answer becomes an
// `APIConnectionError` (or `APITimeoutError`), which carries no status; a
// request the caller aborted becomes an `APIUserAbortError`.

export type ResponseHeaders = Record<string, string>;

/** Base class of every error the client throws. */
export class JpSupportError extends Error {
  override name = 'JpSupportError';
}

/** A non-2xx HTTP answer. `detail` is the body's `detail` string (the API's error form). */
export class APIError extends JpSupportError {
  override name = 'APIError';
  /** HTTP status code. */
  readonly status: number;
  /** Human-readable reason: the body's `detail`, or a generic text when the body has none. */
  readonly detail: string;
  /** The `X-Request-ID` response header (quote it when reporting a problem), or null. */
  readonly requestId: string | null;
  /** Response headers, lower-cased names. */
  readonly headers: ResponseHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON, or null when empty. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: ResponseHeaders = {}, detail?: string) {
    const d = detail ?? detailOf(body) ?? `HTTP ${status}`;
    super(`${status} ${d}`);
    this.status = status;
    this.detail = d;
    this.headers = headers;
    this.body = body;
    this.requestId = headers['x-request-id'] ?? null;
  }

  /** The subclass for a status: 401/403, 400/422, 402, 404, 429, 5xx; others are plain `APIError`. */
  static generate(status: number, body: unknown, headers: ResponseHeaders = {}): APIError {
    if (status === 400 || status === 422) return new BadRequestError(status, body, headers);
    if (status === 401 || status === 403) return new AuthenticationError(status, body, headers);
    if (status === 402) return new CapReachedError(status, body, headers);
    if (status === 404) return new NotFoundError(status, body, headers);
    if (status === 429) return new RateLimitError(status, body, headers);
    if (status >= 500) return new ServerError(status, body, headers);
    return new APIError(status, body, headers);
  }
}

/** 400 or 422: the request's parameters or body were rejected; change them before retrying. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}

/** 401 or 403: missing, invalid or revoked key, or no permission. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}

/**
 * 402: the monthly spend cap is reached (`capYen`, `spentYen` from the body),
 * or, on `billing.keysFromCheckout`, the checkout session is not paid (both null).
 */
export class CapReachedError extends APIError {
  override name = 'CapReachedError';
  /** The monthly cap in yen, when the body names it. */
  readonly capYen: number | null;
  /** This month's billable spend in yen, when the body names it. */
  readonly spentYen: number | null;
  constructor(status: number, body: unknown, headers: ResponseHeaders = {}) {
    super(status, body, headers);
    this.capYen = numberField(body, 'cap_yen');
    this.spentYen = numberField(body, 'spent_yen');
  }
}

/** 404: the resource (program, law, …) or the path does not exist. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}

/** 429: a daily limit is exhausted. `retryAfter` (seconds) says when it resets. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds from the `Retry-After` header, or null when absent. */
  readonly retryAfter: number | null;
  /** The limit that was hit, when the body names it. */
  readonly limit: number | null;
  /** When the limit resets (ISO 8601), when the body names it. */
  readonly resetsAt: string | null;
  constructor(status: number, body: unknown, headers: ResponseHeaders = {}) {
    super(status, body, headers);
    this.retryAfter = parseRetryAfterSeconds(headers);
    this.limit = numberField(body, 'limit');
    const resets = field(body, 'resets_at');
    this.resetsAt = typeof resets === 'string' ? resets : null;
  }
}

/** 5xx: the server failed; retried automatically for idempotent requests. */
export class ServerError extends APIError {
  override name = 'ServerError';
}

/** No HTTP answer: connection refused or reset, DNS failure, or an unreadable response. No status. */
export class APIConnectionError extends JpSupportError {
  override name = 'APIConnectionError';
  readonly status: undefined = undefined;
  readonly detail: string;
  /** The `X-Request-ID` the client sent, if any (there is no response to read one from). */
  readonly requestId: string | null;
  constructor(message = 'Connection error.', options: { cause?: unknown; requestId?: string | null } = {}) {
    super(message, { cause: options.cause });
    this.detail = message;
    this.requestId = options.requestId ?? null;
  }
}

/** An attempt took longer than `timeoutMs` (after every allowed retry). No status. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  constructor(message = 'Request timed out.', options: { cause?: unknown; requestId?: string | null } = {}) {
    super(message, options);
  }
}

/** The caller's `signal` aborted the request. Never retried. */
export class APIUserAbortError extends JpSupportError {
  override name = 'APIUserAbortError';
  readonly status: undefined = undefined;
  readonly detail: string;
  readonly requestId: string | null;
  constructor(message = 'Request was aborted.', options: { cause?: unknown; requestId?: string | null } = {}) {
    super(message, { cause: options.cause });
    this.detail = message;
    this.requestId = options.requestId ?? null;
  }
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[key] : undefined;
}

function numberField(body: unknown, key: string): number | null {
  const v = field(body, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function detailOf(body: unknown): string | undefined {
  const d = field(body, 'detail');
  if (typeof d === 'string' && d.length > 0) return d;
  if (typeof body === 'string' && body.length > 0 && body.length <= 500) return body;
  return undefined;
}

/**
 * Seconds to wait from `Retry-After` (delta-seconds or an HTTP date) or
 * `Retry-After-Ms`; null when absent or unreadable. Never negative.
 */
export function parseRetryAfterSeconds(headers: ResponseHeaders, now: number = Date.now()): number | null {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n / 1000;
  }
  const raw = headers['retry-after'];
  if (raw === undefined || raw.trim() === '') return null;
  const n = Number(raw);
  if (Number.isFinite(n)) return Math.max(0, n);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return null;
  return Math.max(0, (date - now) / 1000);
}
