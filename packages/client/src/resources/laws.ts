import { RecordSet } from './record-set.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/laws: laws, the articles of the laws whose text the service holds, and the revisions of a law. */
export class Laws extends RecordSet<'searchLaws', 'getLaw'> {
  /** GET /v1/laws/{id}/articles: the law's articles, paged. */
  async articles(id: string, query: T.LawArticlesQuery = {}, options?: CallOptions): Promise<T.LawArticlesResponse> {
    return this._client.get(path`/v1/laws/${id}/articles`, { query, ...options });
  }

  /** GET /v1/laws/{id}/articles/{art}: the text in force. */
  async article(id: string, art: string | number, options?: CallOptions): Promise<T.LawArticleGetResponse> {
    return this._client.get(path`/v1/laws/${id}/articles/${art}`, options);
  }

  /** GET /v1/laws/{id}/articles/{art}?effective_on=: the text as in force on a day (YYYY-MM-DD), with the revision it comes from. */
  async articleAsOf(id: string, art: string | number, effectiveOn: string, options?: CallOptions): Promise<T.LawArticleGetResponse> {
    return this._client.get(path`/v1/laws/${id}/articles/${art}`, { query: { effective_on: effectiveOn }, ...options });
  }

  /** GET /v1/laws/{id}/revisions: the revisions the e-Gov sync has seen, newest first, and whether their text is held. */
  async revisions(id: string, options?: CallOptions): Promise<T.LawRevisionsResponse> {
    return this._client.get(path`/v1/laws/${id}/revisions`, options);
  }
}
