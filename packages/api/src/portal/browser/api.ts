// The page scripts' calls to this server's API: same origin, JSON, cookies
// only where the browser sends them (the session cookie is Path=/v1 and
// HttpOnly: scripts never see it). Errors come back as values, with the
// server's `detail` text, never thrown at the reader.
export type ApiResult<T> =
  | {
      ok: true;
      status: number;
      body: T;
      /** RateLimit-Remaining: what is left of the caller's daily allowance (null for paid keys and uncounted calls). */
      remaining: number | null;
    }
  | { ok: false; status: number; detail: string };

export async function api<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, status: 0, detail: 'Network error: the server could not be reached' };
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) {
    const remaining = response.headers.get('ratelimit-remaining');
    return { ok: true, status: response.status, body: body as T, remaining: remaining === null ? null : Number(remaining) };
  }
  const detail =
    body && typeof body === 'object' && typeof (body as { detail?: unknown }).detail === 'string'
      ? (body as { detail: string }).detail
      : `HTTP ${response.status}`;
  return { ok: false, status: response.status, detail };
}
