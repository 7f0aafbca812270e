// Two ways to carry one HTTP exchange, behind one interface: `fetchTransport`
// (a real HTTP request through `fetch`) and `injectTransport` (an in-process
// call into a Fastify app through its `inject`, no socket). The request core
// in client.ts never knows which one it talks to.

/** One HTTP exchange as the request core sees it. */
export interface TransportRequest {
  method: string;
  /** Absolute URL (base URL + path + query string). */
  url: string;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Serialised JSON body, or undefined. */
  body?: string;
  /** Aborted on the per-attempt timeout or by the caller. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Response headers, lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The response body as text (empty string when none). */
  body: string;
}

/**
 * Carries a request and resolves with the answer, whatever its status.
 * Rejects only when no answer arrived (connection failure, abort).
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** HTTP through `fetch` (the global one by default). */
export function fetchTransport(fetchImpl: typeof fetch = globalThis.fetch): Transport {
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('No fetch implementation: pass `fetch` in the client options (Node 20+ and browsers have a global one).');
  }
  return async (req) => {
    const res = await fetchImpl(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    // Reading the body is part of the attempt: the signal still bounds it.
    const body = await res.text();
    return { status: res.status, headers, body };
  };
}

/**
 * What `injectTransport` needs of a Fastify app (structural, so this package
 * does not depend on fastify): `inject` with light-my-request's options.
 */
export interface InjectableApp {
  inject(options: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string;
    remoteAddress?: string;
    signal?: AbortSignal;
  }): PromiseLike<{ statusCode: number; headers: Record<string, string | string[] | number | undefined>; body: string }>;
}

export interface InjectTransportOptions {
  /** Client address the app sees (its per-address limit and hashing use it); light-my-request defaults to 127.0.0.1. */
  remoteAddress?: string;
}

/**
 * In-process calls into a Fastify app: the same routes, hooks, limits and
 * billing as over HTTP, without a socket. Only the path and query of the URL
 * are used; the base URL's host is ignored.
 */
export function injectTransport(app: InjectableApp, options: InjectTransportOptions = {}): Transport {
  return (req) => {
    const url = new URL(req.url);
    const injected = Promise.resolve(
      app.inject({
        method: req.method,
        url: url.pathname + url.search,
        headers: req.headers,
        ...(req.body !== undefined ? { payload: req.body } : {}),
        ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}),
        signal: req.signal,
      }),
    ).then((res) => ({ status: res.statusCode, headers: flattenHeaders(res.headers), body: res.body ?? '' }));
    return raceAbort(injected, req.signal);
  };
}

function flattenHeaders(raw: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** Reject with the signal's reason as soon as it aborts, whatever the underlying promise does. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
