// @jp-support/client: TypeScript client of the Japanese public support programs API.
export { JpSupportClient, JpSupportClient as default, VERSION, backoffDelay, sleep } from './client.ts';
export type {
  ClientOptions,
  RequestOptions,
  CallOptions,
  APIResponse,
  HttpMethod,
  QueryParams,
  QueryScalar,
  QueryValue,
  Sleep,
} from './client.ts';
export {
  JpSupportError,
  APIError,
  BadRequestError,
  AuthenticationError,
  CapReachedError,
  NotFoundError,
  RateLimitError,
  ServerError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  parseRetryAfterSeconds,
} from './errors.ts';
export type { ResponseHeaders } from './errors.ts';
export { fetchTransport, injectTransport } from './transport.ts';
export type { Transport, TransportRequest, TransportResponse, InjectableApp, InjectTransportOptions } from './transport.ts';
export { path, encodeSegment } from './path.ts';
export { RecordSet } from './resources/record-set.ts';
export { Laws } from './resources/laws.ts';
export { launchToolServer } from './mcp.ts';
export type { LaunchToolServerOptions } from './mcp.ts';
export type * from './resources/types.ts';
export type * as OpenAPI from './generated/openapi.ts';
