// Errors that happen before our hooks and handlers run, answered in our one
// shape, `{"detail": string}`:
// - `frameworkErrors` (a Fastify server option): a bad percent-encoding in
//   the path (400) and a path parameter over maxParamLength (414), which
//   Fastify otherwise answers in its own shape;
// - `clientErrorHandler` (a Fastify server option, Node's `clientError`): a
//   request Node's HTTP parser refuses (headers or URL over its limit -> 431,
//   a request that took too long -> 408, anything malformed -> 400). The
//   connection cannot be used after such an error, so the answer says
//   `Connection: close` and the socket is ended gracefully (FIN after the
//   answer, not a reset): a keep-alive client then opens a new connection
//   for its next request instead of failing with ECONNRESET. A target
//   refused only for raw UTF-8 bytes is read again, percent-encoded, first
//   (http/raw-utf8-target.ts).
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { rereadRawUtf8Target } from '../http/raw-utf8-target.ts';

const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'The URL is not validly percent-encoded'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path parameter is too long'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'The request could not be routed'],
};

export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, detail] = FRAMEWORK_ERRORS[error.code] ?? [400, 'Bad request'];
  void reply.code(status).send({ detail });
}

/** Status and detail for a connection-level parse error of Node's HTTP server. */
export function clientErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'The request line or headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return [408, 'The request was not received in time'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'The request body is too large'];
    default:
      return [400, 'Malformed HTTP request'];
  }
}

/** How long an ended socket may take to close before it is destroyed. */
const CLOSE_GRACE_MS = 2000;

export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (err: Error & { code?: string }, socket: Socket) => {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (rereadRawUtf8Target(err, socket)) return;
  const [status, detail] = clientErrorAnswer(err.code);
  if (socket.writable && !(socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    const payload = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  } else {
    socket.destroy();
  }
};
