// One error vocabulary: every error leaves as `{"detail": string}` with the
// status of the contract. Client mistakes get a precise 4xx; anything else is
// a 500 whose text is never the internal message (no stack, no SQL, no
// secret); it is logged with the request id instead.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { StateUnavailableError } from '../state/sql.ts';
import { ONE_LINE, ONE_LINE_DETAIL } from '../lib/untrusted-text.ts';

/** Seconds a client is asked to wait while the state store is unreachable. */
export const STATE_RETRY_AFTER_SECONDS = 5;

/** Thrown by handlers and hooks to answer with a given status and body. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(statusCode: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.statusCode = statusCode;
    this.body = { detail, ...extra };
    this.headers = headers;
  }
}

/** The 404 text for a path that does not exist (no query string, bounded length). */
export function notFoundDetail(request: FastifyRequest): string {
  return `Not found: ${request.method} ${request.url.split('?')[0].slice(0, 200)}`;
}

/** "querystring/limit must be <= 100" -> "limit: must be <= 100" style messages for validation failures. */
function validationDetail(error: FastifyError): string {
  const context = error.validationContext ?? 'request';
  const issues = (error.validation ?? []).slice(0, 3).map((v) => {
    const field = v.instancePath ? v.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
    const missing = (v.params as { missingProperty?: string })?.missingProperty;
    const extra = (v.params as { additionalProperty?: string })?.additionalProperty;
    const allowed = (v.params as { allowedValues?: unknown[] })?.allowedValues;
    const pattern = (v.params as { pattern?: string })?.pattern;
    const name = missing ?? field;
    let message = v.message ?? 'is invalid';
    if (extra) message = `unknown property '${extra}'`;
    if (allowed) message = `must be one of ${allowed.map(String).join(', ')}`;
    if (pattern === ONE_LINE) message = ONE_LINE_DETAIL;
    return name ? `${name}: ${message}` : message;
  });
  return `Invalid ${context}: ${[...new Set(issues)].join('; ') || 'does not match the schema'}`;
}

// Fastify's own client-side errors, mapped to the status and wording we send.
const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type: send application/json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body is empty: send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Request body is not valid JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
};

export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).headers(error.headers).send(error.body);
      }
      if (error instanceof StateUnavailableError) {
        request.log.warn({ reqId: request.id, cause: String((error.cause as Error)?.message ?? '') }, 'state store unavailable');
        return reply
          .code(503)
          .header('Retry-After', String(STATE_RETRY_AFTER_SECONDS))
          .send({ detail: 'The service cannot reach its account and usage store; try again shortly' });
      }
      if (error.validation) {
        return reply.code(400).send({ detail: validationDetail(error) });
      }
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      if (known) return reply.code(known[0]).send({ detail: known[1] });
      if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
        return reply.code(400).send({ detail: 'Request body is not valid JSON' });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.code(status).send({ detail: error.message || 'Bad request' });
      }
      request.log.error({ err: error, reqId: request.id }, 'unhandled error');
      return reply.code(500).send({ detail: 'Internal server error' });
    });

    app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: notFoundDetail(request) }));
  },
  { name: 'errors' },
);
