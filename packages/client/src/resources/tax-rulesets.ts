import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/tax_rulesets. */
export class TaxRulesets extends APIResource {
  /** GET /v1/tax_rulesets/search (`effective_on` YYYY-MM-DD). */
  async search(query: T.TaxRulesetSearchQuery = {}, options?: CallOptions): Promise<T.TaxRulesetSearchResponse> {
    return this._client.get('/v1/tax_rulesets/search', { query, ...options });
  }

  /** GET /v1/tax_rulesets/{id}. */
  async get(id: string, options?: CallOptions): Promise<T.TaxRulesetGetResponse> {
    return this._client.get(path`/v1/tax_rulesets/${id}`, options);
  }
}
