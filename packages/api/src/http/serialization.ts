// Serialisation of responses. Routes whose rows are built by our own shaping
// functions (catalogue queries, record sets, programs, /v1/am) set
// `serializerCompiler: jsonSerializer`: plain JSON.stringify, which handles
// their shape unions faster than a schema-driven serialiser would. Their
// response schemas still document the answer; test/routes/response-shapes.test.ts
// validates real answers against the published document so the two cannot drift.

export const jsonSerializer = () => (data: unknown) => JSON.stringify(data);

/** The content type of JSON text a route sends as it is (already serialised; Fastify's own for JSON). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Send JSON serialised beforehand (text, or its UTF-8 bytes: http/answers.ts), with the
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

/**
 * JSON serialised once and kept: its body as UTF-8 bytes (encoded once:
 * turning a long Japanese string into bytes on every write was a visible
 * share of a detail's cost) and its ETag (hashed once, not per request). The
 * answer caches hold these (http/answers.ts); the compression plugin keeps
 * the compressed forms beside this very Buffer (http/compression.ts).
 */
export class CachedBody {
  readonly body: Buffer;
  readonly etag: string;
  constructor(body: Buffer, etag: string) {
    this.body = body;
    this.etag = etag;
  }
}

/**
 * Send a route's answer (routes/operation.ts `answered`): a cached answer or
 * JSON bytes as they are, any other value for the route's serializer
 * (JSON.stringify) to write.
 */
export function sendAnswer<R extends { type(t: string): unknown; header(k: string, v: string): unknown; send(body: never): unknown }>(
  reply: R,
  answer: object,
): R | object {
  if (answer instanceof CachedBody) return sendJsonText(reply, answer.body, answer.etag);
  if (Buffer.isBuffer(answer)) return sendJsonText(reply, answer);
  if (answer instanceof Promise) throw new Error('A route answer is synchronous (plugins/in-process.ts `Answer`)');
  return answer;
}
