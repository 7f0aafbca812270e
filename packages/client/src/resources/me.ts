import { APIResource } from './resource.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/** /v1/me: the key's account (key required). */
export class Me extends APIResource {
  /** GET /v1/me: account information. */
  async get(options?: CallOptions): Promise<T.MeResponse> {
    return this._client.get('/v1/me', options);
  }

  /** GET /v1/me/dashboard: usage and charges. */
  async dashboard(options?: CallOptions): Promise<T.DashboardResponse> {
    return this._client.get('/v1/me/dashboard', options);
  }

  /** POST /v1/me/cap: set (integer yen > 0) or remove (null) the monthly spend cap. Setting a value is idempotent. */
  async setCap(monthlyCapYen: number | null, options?: CallOptions): Promise<T.SetCapResponse> {
    return this._client.post('/v1/me/cap', { body: { monthly_cap_yen: monthlyCapYen } satisfies T.SetCapRequest, idempotent: true, ...options });
  }
}
