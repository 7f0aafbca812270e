// The request vocabulary shared by the client and its resources: methods,
// query parameters, per-request options, and the part of the client a
// resource calls (RequestCore). A leaf module, so resources/ never import
// client.ts (which imports them).

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;
/** Query parameters: arrays become repeated keys (`tier=S&tier=A`); null and undefined are left out. */
export type QueryParams = { readonly [key: string]: QueryValue };

export interface RequestOptions {
  query?: QueryParams;
  /** JSON-serialised as the request body. */
  body?: unknown;
  /** Extra headers for this request; `undefined` removes a default one. */
  headers?: Record<string, string | undefined>;
  /** Aborting it rejects with `APIUserAbortError`; never retried. */
  signal?: AbortSignal | null;
  /** The request is safe to repeat (read-only POSTs such as search-style endpoints): retried like a GET. */
  idempotent?: boolean;
  /** Retry even a non-idempotent request on 5xx and connection errors (429 is always retried). */
  retryNonIdempotent?: boolean;
  /** Per-attempt timeout for this request. */
  timeoutMs?: number;
  /** Retries for this request. */
  maxRetries?: number;
  /** Sent as `X-Request-ID`; the server echoes a sane one back and logs it. */
  requestId?: string;
}

/** Options a resource method takes last: everything but query and body. */
export type CallOptions = Omit<RequestOptions, 'query' | 'body'>;

/** What a resource needs of the client: its request core. */
export interface RequestCore {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
}
