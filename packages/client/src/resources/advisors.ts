import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/advisors: professional referral partners (paths of the original service: docs/decisions/0076-paths-beyond-contract.md). */
export class Advisors extends APIResource {
  /** GET /v1/advisors: advisors matching prefecture / specialty / industry. */
  async list(query: T.AdvisorListQuery = {}, options?: CallOptions): Promise<T.AdvisorListResponse> {
    return this._client.get('/v1/advisors', { query, ...options });
  }

  /** POST /v1/advisors/signup: register a firm (unverified until checked). */
  async signup(body: T.AdvisorSignupRequest, options?: CallOptions): Promise<T.AdvisorSignupResponse> {
    return this._client.post('/v1/advisors/signup', { body, ...options });
  }

  /** POST /v1/advisors/track: record a referral click; returns a single-use token and the redirect URL. */
  async track(body: T.AdvisorTrackRequest, options?: CallOptions): Promise<T.AdvisorTrackResponse> {
    return this._client.post('/v1/advisors/track', { body, ...options });
  }

  /** POST /v1/advisors/report-conversion: report that a referral converted. */
  async reportConversion(body: T.AdvisorConversionRequest, options?: CallOptions): Promise<T.AdvisorConversionResponse> {
    return this._client.post('/v1/advisors/report-conversion', { body, ...options });
  }

  /** GET /v1/advisors/{id}/dashboard: clicks, conversions and commissions. */
  async dashboard(id: number | string, options?: CallOptions): Promise<T.AdvisorDashboardResponse> {
    return this._client.get(path`/v1/advisors/${id}/dashboard`, options);
  }
}
