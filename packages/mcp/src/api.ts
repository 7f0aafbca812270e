// The narrow interface the tools need from the client library: one generic
// request method. `JpSupportClient` (packages/client) satisfies it structurally;
// the tools never build URLs with a host, so the same tools run over HTTP
// (stdio server) and in-process (Fastify inject, the /mcp endpoint).
export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  idempotent?: boolean;
}

export interface Api {
  request<T = unknown>(method: 'GET' | 'POST', path: string, options?: RequestOptions): Promise<T>;
}

/** What the tools read from an error the client throws for a non-2xx answer. */
export interface ApiErrorInfo {
  status: number;
  detail: string;
  requestId: string | null;
}

/** Duck-typed view of the client's `APIError` family (status + detail), or null for anything else. */
export function apiErrorInfo(err: unknown): ApiErrorInfo | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { status?: unknown; detail?: unknown; message?: unknown; requestId?: unknown };
  if (typeof e.status !== 'number') return null;
  const detail = typeof e.detail === 'string' ? e.detail : typeof e.message === 'string' ? e.message : 'request failed';
  return { status: e.status, detail, requestId: typeof e.requestId === 'string' ? e.requestId : null };
}

/** Path segment encoder for ids taken from tool input. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));
