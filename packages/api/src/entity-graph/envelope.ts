// The response pieces every /v1/am tool shares: the error object (a tool
// failure is reported in `error` with empty results and status 200, never
// thrown), the paginated envelope (AMSearchResponse) and the common row of an
// entity.
import type { Entity } from './queries/entities.ts';

export interface AmError {
  code: string;
  message: string;
  hint?: string;
  retry_with?: unknown;
}

export const amError = (code: string, message: string, hint?: string, retry_with?: unknown): AmError => ({
  code,
  message,
  ...(hint ? { hint } : {}),
  ...(retry_with !== undefined ? { retry_with } : {}),
});

export interface Envelope {
  total: number;
  limit: number;
  offset: number;
  results: Record<string, unknown>[];
  meta: Record<string, unknown> | null;
  error: AmError | null;
  retrieval_note: string | null;
}

export const envelope = (limit: number, offset: number, extra: Partial<Envelope> = {}): Envelope => ({
  total: 0,
  limit,
  offset,
  results: [],
  meta: null,
  error: null,
  retrieval_note: null,
  ...extra,
});

/** The common row shape of an entity in /v1/am results. */
export function entitySummary(e: Entity): Record<string, unknown> {
  return {
    entity_id: e.entity_id,
    record_kind: e.record_kind,
    name: e.name,
    source_url: e.source_url,
    fetched_at: e.fetched_at,
    valid_from: e.valid_from,
    valid_until: e.valid_until,
    status: e.status,
    prefecture: e.prefecture,
    authority_name: e.authority_name,
    tier: e.tier,
  };
}
