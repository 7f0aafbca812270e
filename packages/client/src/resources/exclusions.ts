import { APIResource } from './resource.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/exclusions: the rule catalogue and the combination check. */
export class Exclusions extends APIResource {
  /** GET /v1/exclusions/rules: every rule. */
  async rules(options?: CallOptions): Promise<T.ExclusionRulesResponse> {
    return this._client.get('/v1/exclusions/rules', options);
  }

  /** POST /v1/exclusions/check: rules the selection triggers. Read-only, so retried like a GET. */
  async check(body: T.ExclusionCheckRequest, options?: CallOptions): Promise<T.ExclusionCheckResponse> {
    return this._client.post('/v1/exclusions/check', { body, idempotent: true, ...options });
  }
}
