// Load generation with autocannon. All connections share ONE cursor over the
// scenario's request list, so with N requests each one is sent once per N
// requests overall (a long tail stays a long tail; connections do not march
// through the list in lockstep and hit the same entry together).
import { createRequire } from 'node:module';
import type { BenchRequest } from './recording.ts';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Answers that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

/** One autocannon run over the list (one shared cursor): for `duration` seconds, or until `amount` requests were sent. */
export async function cycleRequests(
  baseUrl: string,
  requests: readonly BenchRequest[],
  connections: number,
  until: { duration: number } | { amount: number },
): Promise<AutocannonResult> {
  let cursor = 0;
  return autocannon({
    url: baseUrl,
    ...until,
    connections,
    requests: [
      {
        setupRequest(req: Record<string, unknown>) {
          const next = requests[cursor++ % requests.length];
          req.method = next.method;
          req.path = next.path;
          req.headers = next.headers;
          req.body = next.body ?? undefined;
          return req;
        },
      },
    ],
  });
}

export async function runLoad(baseUrl: string, requests: readonly BenchRequest[], seconds: number, connections: number): Promise<LoadResult> {
  const result = await cycleRequests(baseUrl, requests, connections, { duration: seconds });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
