import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/loans: loans and mutual-aid plans. */
export class Loans extends APIResource {
  /** GET /v1/loans/search: filters on collateral, personal and third-party guarantor. */
  async search(query: T.LoanSearchQuery = {}, options?: CallOptions): Promise<T.LoanSearchResponse> {
    return this._client.get('/v1/loans/search', { query, ...options });
  }

  /** GET /v1/loans/{id}. */
  async get(id: string | number, options?: CallOptions): Promise<T.LoanGetResponse> {
    return this._client.get(path`/v1/loans/${id}`, options);
  }
}
