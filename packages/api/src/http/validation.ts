// Schema validation of requests. Query strings and path parameters arrive as
// text, so they are coerced (`"20"` -> 20, a single `tier=S` -> ["S"]);
// JSON bodies already carry types, so they are validated strictly: a string
// where an array is expected is a 400, not silently wrapped.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: 'array' | false): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const coercing = makeAjv('array');
const strict = makeAjv(false);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  return ajv.compile(schema as object);
};

/** A query string's validator as the routes get it (coercing, defaults filled in place): for calls made in process (routes/mcp-calls.ts). */
export function queryValidator(schema: object): (query: Record<string, unknown>) => boolean {
  const validate = coercing.compile(schema);
  return (query) => validate(query) === true;
}
