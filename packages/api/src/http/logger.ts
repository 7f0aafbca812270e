// pino options: one JSON line per request with its id; never the client
// address, never a key (the request serialiser keeps method and URL only,
// and authorization headers are redacted wherever they might appear).
import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Query parameters whose value is a credential wherever they appear. */
const SECRET_PARAMS = /([?&](?:api[_-]?key|key|token|access_token|device_code|session_id|secret)=)[^&#]*/gi;
/** An API key anywhere in a URL (path or query), e.g. `?q=am_AbC…`. */
const KEY_SHAPED = /am_[A-Za-z0-9]{8,}/g;

/** A URL safe to log: credential-named parameters and key-shaped values are replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(KEY_SHAPED, 'am_[redacted]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    // Asynchronous writes to stdout: a synchronous write per line cost about
    // 10 % of a paid detail call's CPU (docs/performance.md, Profiles). With
    // minLength 0 a line is written as soon as the previous write is done, so
    // lines under load coalesce into fewer syscalls and nothing waits for a
    // buffer to fill; pino flushes what is pending when the process exits.
    stream: pino.destination({ dest: 1, sync: false, minLength: 0 }),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method: string; url: string }) {
        return { method: req.method, url: redactUrl(req.url) };
      },
      res(res: { statusCode: number }) {
        return { statusCode: res.statusCode };
      },
    },
  };
}
