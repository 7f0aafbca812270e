import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/case_studies: award recipients and the programs they used. */
export class CaseStudies extends APIResource {
  /** GET /v1/case_studies/search. */
  async search(query: T.CaseStudySearchQuery = {}, options?: CallOptions): Promise<T.CaseStudySearchResponse> {
    return this._client.get('/v1/case_studies/search', { query, ...options });
  }

  /** GET /v1/case_studies/{id}. */
  async get(id: string, options?: CallOptions): Promise<T.CaseStudyGetResponse> {
    return this._client.get(path`/v1/case_studies/${id}`, options);
  }
}
