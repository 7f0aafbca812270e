import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/programs: search, match a company profile, one program, batch of up to 50. */
export class Programs extends APIResource {
  /** GET /v1/programs/search. Repeatable filters (`tier`, `funding_purpose`, `target_type`) take arrays. */
  async search(query: T.ProgramSearchQuery = {}, options?: CallOptions): Promise<T.ProgramSearchResponse> {
    return this._client.get('/v1/programs/search', { query, ...options });
  }

  /**
   * GET /v1/programs/search?format=csv|jsonl: every match (from `offset`, up
   * to `max_rows` and the server's cap) as CSV (UTF-8 with BOM) or JSON Lines
   * text. Each started 100 rows count as one request.
   */
  async export(format: T.ExportFormat, query: Omit<T.ProgramSearchQuery, 'format'> = {}, options?: CallOptions): Promise<string> {
    return this._client.get('/v1/programs/search', { query: { ...query, format }, ...options });
  }

  /** GET /v1/programs/{unified_id}/history: the dataset versions in which it appeared, changed or was removed. */
  async history(unifiedId: string, options?: CallOptions): Promise<T.ProgramHistoryResponse> {
    return this._client.get(path`/v1/programs/${unifiedId}/history`, options);
  }

  /** GET /v1/programs/{unified_id}; `NotFoundError` for an unknown id. */
  async get(unifiedId: string, query: T.ProgramGetQuery = {}, options?: CallOptions): Promise<T.ProgramGetResponse> {
    return this._client.get(path`/v1/programs/${unifiedId}`, { query, ...options });
  }

  /**
   * POST /v1/programs/match: programmes for a company profile (every field
   * optional: prefecture, municipality, industry as a JSIC code, employees,
   * capital_man_yen, founded_year or stage, purposes, need), ranked by the
   * search engine, each with `reasons` and `unknowns`. Read-only, so retried like a GET.
   */
  async match(body: T.ProgramMatchRequest = {}, options?: CallOptions): Promise<T.ProgramMatchResponse> {
    return this._client.post('/v1/programs/match', { body, idempotent: true, ...options });
  }

  /** POST /v1/programs/batch: 1 to 50 ids, full shape; unknown ids in `not_found`. Read-only, so retried like a GET. */
  async batch(body: T.ProgramBatchRequest, options?: CallOptions): Promise<T.ProgramBatchResponse> {
    return this._client.post('/v1/programs/batch', { body, idempotent: true, ...options });
  }
}
