// pino options: one JSON line per request with its id; never the client
// address, never a key (the request serialiser keeps method and URL only,
// and authorization headers are redacted wherever they might appear).
import type { FastifyServerOptions } from 'fastify';

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method: string; url: string }) {
        return { method: req.method, url: req.url };
      },
      res(res: { statusCode: number }) {
        return { statusCode: res.statusCode };
      },
    },
  };
}
