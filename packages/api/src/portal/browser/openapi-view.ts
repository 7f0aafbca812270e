// The document the API reference page gives Swagger UI: the published
// OpenAPI 3.1 document read as 3.0. Swagger UI renders 3.1 through its
// ApiDOM resolver, which was most of the page's time to first use; read as
// 3.0 the same operations render about three times sooner (decision 0264).
// The one 3.1 construct the document uses is `{type: 'null'}` in an `anyOf`
// (a nullable field); 3.0 says `nullable: true`. Pure: no DOM, tested in
// Node (test/portal/pages.test.ts).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isNull = (schema: Json): boolean =>
  !!schema && typeof schema === 'object' && !Array.isArray(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

/** One schema (and everything under it), nullable unions rewritten. */
function view(node: Json): Json {
  if (Array.isArray(node)) return node.map(view);
  if (!node || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = view(value);
  const anyOf = out.anyOf;
  if (!Array.isArray(anyOf) || !anyOf.some(isNull)) return out;
  const others = anyOf.filter((s) => !isNull(s));
  delete out.anyOf;
  if (others.length === 1 && others[0] && typeof others[0] === 'object' && !Array.isArray(others[0]) && !('$ref' in others[0])) {
    return { ...others[0], ...out, nullable: true };
  }
  // A $ref cannot carry siblings in 3.0; several alternatives stay a union.
  return { ...out, ...(others.length === 1 ? { allOf: others } : { anyOf: others }), nullable: true };
}

/** The published document as an OpenAPI 3.0 document for Swagger UI's rendering. */
export function asOpenApi30<T extends object>(document: T): T {
  return { ...(view(document as unknown as Json) as object), openapi: '3.0.3' } as T;
}
