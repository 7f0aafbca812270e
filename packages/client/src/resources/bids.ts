import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/bids: public procurement notices and results. */
export class Bids extends APIResource {
  /** GET /v1/bids/search. */
  async search(query: T.BidSearchQuery = {}, options?: CallOptions): Promise<T.BidSearchResponse> {
    return this._client.get('/v1/bids/search', { query, ...options });
  }

  /** GET /v1/bids/{unified_id} (`BID-` + 10 hex). */
  async get(unifiedId: string, options?: CallOptions): Promise<T.BidGetResponse> {
    return this._client.get(path`/v1/bids/${unifiedId}`, options);
  }
}
