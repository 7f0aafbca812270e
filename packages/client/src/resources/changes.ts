import { APIResource } from './resource.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/changes: what each dataset version created, amended or removed. */
export class Changes extends APIResource {
  /** GET /v1/changes: oldest first from `since` (a cursor); follow `next_cursor`. */
  async list(query: T.ChangesQuery = {}, options?: CallOptions): Promise<T.ChangesResponse> {
    return this._client.get('/v1/changes', { query, ...options });
  }

  /** Every event after `since`, page by page (`limit` per page), until the feed has no more; yields the cursor to resume from with each page. */
  async *follow(query: T.ChangesQuery = {}, options?: CallOptions): AsyncGenerator<{ events: T.ChangeEvent[]; cursor: string }> {
    let since = query.since;
    for (;;) {
      const page = await this.list({ ...query, since }, options);
      yield { events: page.results, cursor: page.next_cursor };
      if (!page.has_more) return;
      since = page.next_cursor;
    }
  }

  /** GET /v1/changes/versions: the dataset versions, newest first. */
  async versions(options?: CallOptions): Promise<T.DatasetVersionsResponse> {
    return this._client.get('/v1/changes/versions', options);
  }
}
