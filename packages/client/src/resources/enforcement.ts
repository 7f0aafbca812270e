import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/enforcement: administrative-enforcement records. */
export class Enforcement extends APIResource {
  /** GET /v1/enforcement/search. */
  async search(query: T.EnforcementSearchQuery = {}, options?: CallOptions): Promise<T.EnforcementSearchResponse> {
    return this._client.get('/v1/enforcement/search', { query, ...options });
  }

  /** GET /v1/enforcement/{id}. */
  async get(id: string, options?: CallOptions): Promise<T.EnforcementGetResponse> {
    return this._client.get(path`/v1/enforcement/${id}`, options);
  }
}
