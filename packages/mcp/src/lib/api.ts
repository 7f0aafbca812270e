// What the tools may call: the typed resource methods of the client library,
// never a path string. `JpSupportClient` satisfies it (over HTTP in the stdio
// server, in-process through `injectTransport` at the API's /mcp).
import type { JpSupportClient } from '@jp-support/client';

export type ToolApi = Pick<
  JpSupportClient,
  | 'programs'
  | 'exclusions'
  | 'meta'
  | 'loans'
  | 'taxRulesets'
  | 'enforcement'
  | 'laws'
  | 'caseStudies'
  | 'certifications'
  | 'bids'
  | 'am'
  // the optional `informed` toolset
  | 'changes'
  | 'savedSearches'
  | 'calendar'
>;

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
