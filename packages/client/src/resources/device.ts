import { APIResource } from './resource.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** /v1/device: device-style authorization (RFC 8628); paths: docs/decisions/0076-paths-beyond-contract.md. */
export class Device extends APIResource {
  /** POST /v1/device/authorize: a device code and a user code to confirm in a browser. */
  async authorize(body: T.DeviceAuthorizeRequest = {}, options?: CallOptions): Promise<T.DeviceAuthorizeResponse> {
    return this._client.post('/v1/device/authorize', { body, ...options });
  }

  /** POST /v1/device/token: poll for the key (`authorization_pending` etc. arrive as 400 `BadRequestError`); `grant_type` defaults to the device-code grant. */
  async token(body: Omit<T.DeviceTokenRequest, 'grant_type'> & { grant_type?: string }, options?: CallOptions): Promise<T.DeviceTokenResponse> {
    return this._client.post('/v1/device/token', { body: { grant_type: DEVICE_CODE_GRANT, ...body }, ...options });
  }
}
