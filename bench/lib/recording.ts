// What the benchmark records from our server and the bare server replays.

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  /** JSON text of the request body (POST), else null. */
  body: string | null;
  headers: Record<string, string>;
}

export interface Recording {
  method: string;
  path: string;
  body: string | null;
  status: number;
  /** Response headers worth replaying (content type). */
  headers: Record<string, string>;
  responseBase64: string;
}

export function replayKey(method: string, path: string, body: string | null): string {
  return `${method} ${path}\n${body ?? ''}`;
}

/** Call our server once with `request` and keep the answer for the replay. */
export async function record(baseUrl: string, request: BenchRequest): Promise<Recording> {
  const res = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body ?? undefined,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  const type = res.headers.get('content-type');
  if (type) headers['content-type'] = type;
  return { method: request.method, path: request.path, body: request.body, status: res.status, headers, responseBase64: bytes.toString('base64') };
}

/**
 * Record every distinct request of the scenarios once (the bare replay's
 * answers); throws on an answer that is not 2xx, which the replay would
 * otherwise serve as if it were one.
 */
export async function recordAll(baseUrl: string, scenarios: readonly { name: string; requests: readonly BenchRequest[] }[]): Promise<Recording[]> {
  const recordings = new Map<string, Recording>();
  for (const s of scenarios) {
    for (const r of s.requests) {
      const key = replayKey(r.method, r.path, r.body);
      if (recordings.has(key)) continue;
      const rec = await record(baseUrl, r);
      if (rec.status < 200 || rec.status >= 300) {
        throw new Error(`${s.name}: ${r.method} ${r.path} answered ${rec.status}: ${Buffer.from(rec.responseBase64, 'base64').toString().slice(0, 300)}`);
      }
      recordings.set(key, rec);
    }
  }
  return [...recordings.values()];
}
