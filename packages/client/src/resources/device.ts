import { APIResource } from './resource.ts';
import type { CallOptions } from '../client.ts';
import type * as T from './types.ts';

/** /v1/device: device-style authorization (RFC 8628); paths per DESIGN.md. */
export class Device extends APIResource {
  /** POST /v1/device/authorize: a device code and a user code to confirm in a browser. */
  authorize(body: T.DeviceAuthorizeRequest = {}, options?: CallOptions): Promise<T.DeviceAuthorizeResponse> {
    return this._client.post('/v1/device/authorize', { body, ...options });
  }

  /** POST /v1/device/token: poll for the key (`authorization_pending` etc. arrive as 400 `BadRequestError`). */
  token(body: T.DeviceTokenRequest, options?: CallOptions): Promise<T.DeviceTokenResponse> {
    return this._client.post('/v1/device/token', { body, ...options });
  }
}
