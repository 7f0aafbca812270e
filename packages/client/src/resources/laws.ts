import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/laws: laws and their articles. */
export class Laws extends APIResource {
  /** GET /v1/laws/search. */
  async search(query: T.LawSearchQuery = {}, options?: CallOptions): Promise<T.LawSearchResponse> {
    return this._client.get('/v1/laws/search', { query, ...options });
  }

  /** GET /v1/laws/{id}. */
  async get(id: string, options?: CallOptions): Promise<T.LawGetResponse> {
    return this._client.get(path`/v1/laws/${id}`, options);
  }

  /** GET /v1/laws/{id}/articles: the law's articles, paged. */
  async articles(id: string, query: T.LawArticlesQuery = {}, options?: CallOptions): Promise<T.LawArticlesResponse> {
    return this._client.get(path`/v1/laws/${id}/articles`, { query, ...options });
  }

  /** GET /v1/laws/{id}/articles/{art}. */
  async article(id: string, art: string | number, options?: CallOptions): Promise<T.LawArticleGetResponse> {
    return this._client.get(path`/v1/laws/${id}/articles/${art}`, options);
  }
}
