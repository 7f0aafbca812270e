// The two calls of the jGrants public API this service makes, through the
// polite client (rate, retries). Paging: the API answers a keyword search in
// one page today; should `metadata.resultset.count` exceed the rows of the
// page, the next page is asked for with `offset` until a page brings no new id.
import type { PoliteClient } from '../http.ts';
import { detailRecord, listRows } from './shape.ts';

export interface ListQuery {
  keyword: string;
  acceptance: string;
  sort?: string;
  order?: string;
}

export class JgrantsClient {
  private readonly base: string;
  private readonly http: PoliteClient;

  constructor(base: string, http: PoliteClient) {
    this.base = base.replace(/\/+$/, '');
    this.http = http;
  }

  /** Every id (in order, without repeats) the list answers for one query. */
  async listIds(q: ListQuery): Promise<string[]> {
    const ids: string[] = [];
    const seen = new Set<string>();
    for (;;) {
      const params = new URLSearchParams({ keyword: q.keyword, sort: q.sort ?? 'created_date', order: q.order ?? 'DESC', acceptance: q.acceptance });
      if (ids.length > 0) params.set('offset', String(ids.length));
      const { count, rows } = listRows(await this.http.getJson(`${this.base}/subsidies?${params}`));
      let fresh = 0;
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        ids.push(r.id);
        fresh++;
      }
      if (ids.length >= count || fresh === 0) return ids;
    }
  }

  /** The detail record (shape unchecked beyond the envelope: see shape.ts#detailDrift). */
  async detail(id: string): Promise<unknown> {
    return detailRecord(await this.http.getJson(`${this.base}/subsidies/id/${encodeURIComponent(id)}`));
  }
}
