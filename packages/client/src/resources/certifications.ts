import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/certifications: certification and accreditation schemes. */
export class Certifications extends APIResource {
  /** GET /v1/certifications/search. */
  async search(query: T.CertificationSearchQuery = {}, options?: CallOptions): Promise<T.CertificationSearchResponse> {
    return this._client.get('/v1/certifications/search', { query, ...options });
  }

  /** GET /v1/certifications/{id}. */
  async get(id: string, options?: CallOptions): Promise<T.CertificationGetResponse> {
    return this._client.get(path`/v1/certifications/${id}`, options);
  }
}
