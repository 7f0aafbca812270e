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
