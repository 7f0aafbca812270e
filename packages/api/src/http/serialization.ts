// Serialisation of responses. Routes whose rows are built by our own shaping
// functions (catalogue queries, record sets, programs, /v1/am) set
// `serializerCompiler: jsonSerializer`: plain JSON.stringify, which handles
// their shape unions faster than a schema-driven serialiser would. Their
// response schemas still document the answer; test/routes/response-shapes.test.ts
// validates real answers against the published document so the two cannot drift.
import { encodedBody, type CachedBody } from '../catalog/program-bodies.ts';

export const jsonSerializer = () => (data: unknown) => JSON.stringify(data);

/** The content type of JSON text a route sends as it is (already serialised; Fastify's own for JSON). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Send JSON serialised beforehand (text, or its UTF-8 bytes: catalog/program-bodies.ts), with the
 * ETag cached beside it when there is one (plugins/etag.ts then hashes nothing).
 * The route's typed `send` expects the response object, hence the cast. The
 * handler must return what this returns (the reply): an async handler that
 * resolves to undefined while onSend hooks (compression) still run loses the body.
 */
export function sendJsonText<R extends { type(t: string): unknown; header(k: string, v: string): unknown; send(body: never): unknown }>(
  reply: R,
  body: string | Buffer,
  etag?: string,
): R {
  if (etag !== undefined) reply.header('etag', etag);
  reply.type(JSON_TYPE);
  reply.send(body as never);
  return reply;
}

/** Bodies smaller than this are sent as they are (@fastify/compress's threshold, app.ts, and the cached bodies'). */
export const COMPRESS_THRESHOLD = 1024;

/** The content codings the server offers, in its order of preference (app.ts). */
export const ENCODINGS = ['br', 'gzip', 'deflate'] as const;

/**
 * The coding to answer in for an Accept-Encoding header: the offered one with
 * the highest q (ties in ENCODINGS order; `*` stands for any, x-gzip for gzip),
 * or null for none (identity).
 */
export function negotiateEncoding(header: string | undefined): (typeof ENCODINGS)[number] | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim());
    const weight = params.find((p) => p.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  let best: (typeof ENCODINGS)[number] | null = null;
  let bestQ = 0;
  for (const e of ENCODINGS) {
    const weight = q.get(e) ?? q.get('*') ?? 0;
    if (weight > bestQ) {
      best = e;
      bestQ = weight;
    }
  }
  return best;
}

/**
 * Send a cached answer (catalog/program-bodies.ts) with its ETag, compressed
 * once and kept when the client asks for br or gzip (what @fastify/compress
 * would have done per response; it leaves a body that already has a
 * Content-Encoding alone, and still handles every other answer and deflate).
 */
export function sendCachedBody<
  R extends { type(t: string): unknown; header(k: string, v: string): unknown; getHeader(k: string): unknown; send(body: never): unknown },
>(request: { headers: Record<string, string | string[] | undefined> }, reply: R, cached: CachedBody): R {
  const accept = request.headers['accept-encoding'];
  const encoding =
    cached.body.length >= COMPRESS_THRESHOLD && request.headers['x-no-compression'] === undefined
      ? negotiateEncoding(typeof accept === 'string' ? accept : undefined)
      : null;
  if (encoding === 'br' || encoding === 'gzip') {
    const vary = reply.getHeader('vary');
    if (typeof vary !== 'string' || vary === '') reply.header('vary', 'accept-encoding');
    else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) reply.header('vary', `${vary}, accept-encoding`);
    reply.header('content-encoding', encoding);
    return sendJsonText(reply, encodedBody(cached, encoding), cached.etag);
  }
  return sendJsonText(reply, cached.body, cached.etag);
}
