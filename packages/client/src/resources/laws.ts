import { RecordSet } from './record-set.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/laws: laws, and the articles of the laws whose text the service holds. */
export class Laws extends RecordSet<'searchLaws', 'getLaw'> {
  /** GET /v1/laws/{id}/articles: the law's articles, paged. */
  async articles(id: string, query: T.LawArticlesQuery = {}, options?: CallOptions): Promise<T.LawArticlesResponse> {
    return this._client.get(path`/v1/laws/${id}/articles`, { query, ...options });
  }

  /** GET /v1/laws/{id}/articles/{art}. */
  async article(id: string, art: string | number, options?: CallOptions): Promise<T.LawArticleGetResponse> {
    return this._client.get(path`/v1/laws/${id}/articles/${art}`, options);
  }
}
