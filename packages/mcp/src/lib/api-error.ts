// An API error (401/402/404/429/5xx) as the `error` object of an isError
// result: the HTTP status, the API's detail, a code and a hint.
import type { ApiErrorInfo } from './api.ts';

function apiErrorCode(status: number): string {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 402) return 'cap_reached';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'bad_request';
  return status >= 500 ? 'server_error' : 'api_error';
}

function apiHint(status: number): { hint?: string } {
  if (status === 401 || status === 403) return { hint: 'Check the API key (JPSP_API_KEY / X-API-Key): it is invalid or revoked.' };
  if (status === 402) return { hint: 'The monthly spend cap of this key is reached; raise or remove it with POST /v1/me/cap.' };
  if (status === 404) return { hint: 'The id does not exist; find valid ids with the matching search tool.' };
  if (status === 429) return { hint: 'The daily limit is used up; retry after the reset or use a paid key.' };
  if (status >= 500) return { hint: 'The API failed; retry later.' };
  return {};
}

/** The error object of an isError result; `detail` is REST's own {detail} text, unchanged. */
export function apiErrorObject(info: ApiErrorInfo): {
  code: string;
  message: string;
  detail: string;
  status: number;
  request_id: string | null;
  hint?: string;
} {
  const message = `API error ${info.status}: ${info.detail}`;
  return { code: apiErrorCode(info.status), message, detail: info.detail, status: info.status, request_id: info.requestId, ...apiHint(info.status) };
}
