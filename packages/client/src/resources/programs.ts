import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/programs: search, one program, batch of up to 50. */
export class Programs extends APIResource {
  /** GET /v1/programs/search. Repeatable filters (`tier`, `funding_purpose`, `target_type`) take arrays. */
  async search(query: T.ProgramSearchQuery = {}, options?: CallOptions): Promise<T.ProgramSearchResponse> {
    return this._client.get('/v1/programs/search', { query, ...options });
  }

  /** GET /v1/programs/{unified_id}; `NotFoundError` for an unknown id. */
  async get(unifiedId: string, query: T.ProgramGetQuery = {}, options?: CallOptions): Promise<T.ProgramGetResponse> {
    return this._client.get(path`/v1/programs/${unifiedId}`, { query, ...options });
  }

  /** POST /v1/programs/batch: 1 to 50 ids, full shape; unknown ids in `not_found`. Read-only, so retried like a GET. */
  async batch(body: T.ProgramBatchRequest, options?: CallOptions): Promise<T.ProgramBatchResponse> {
    return this._client.post('/v1/programs/batch', { body, idempotent: true, ...options });
  }
}
