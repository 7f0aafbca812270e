// What tools/list publishes of a tool's schemas: an agent reads the whole list
// before its first question, so it carries what an agent needs to choose a
// tool and call it, and nothing it pays for without use (decision 0390):
// - inputs: the constraints a sensible call can meet (types, enums, bounds,
//   patterns, required) and one description per field; no `$schema`, no
//   alias of a published field, no filter of a tool over data not held;
// - outputs: the tool's own payload keys with their types,
//   undescribed (the names say it; units are named in the key or in the
//   tool's description); the envelope keys every answer shares are
//   explained once, in the server's instructions, not once per tool.
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { ToolDef } from './define.ts';
import { inputSchema } from './lenient.ts';
import { ROW_SHAPES } from './rows.ts';

type Json = Record<string, unknown>;

const JSON_SCHEMA_OPTIONS = { strictUnions: true, $refStrategy: 'none' } as const;

/** Bounds enforced on every call but never reached by a sensible one: not worth an agent's reading. */
const UNREACHED_MAX_LENGTH = 20;
const UNREACHED_MAXIMUM = 1_000_000;
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/**
 * Drop what JSON Schema takes as its default anyway, the dialect tag (draft-07
 * is the protocol's own) and bounds no sensible call reaches (still checked).
 * Outputs also drop `required` and `additionalProperties: true`: an agent
 * reads an output schema for its key names and types.
 */
function prune(schema: Json, keepDescriptions: boolean, depth: number, output = false): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    // Unknown arguments are ignored with an `unknown_argument` warning (call-tool.ts), so the list need not forbid them.
    if (key === 'additionalProperties' && value === false && depth === 0) continue;
    if (key === 'description' && !keepDescriptions) continue;
    if (key === 'maxLength' && typeof value === 'number' && value >= UNREACHED_MAX_LENGTH) continue;
    // A plain date reads shorter as its format than as its pattern (the pattern is still what a call is checked with).
    if (key === 'pattern' && value === DATE_PATTERN) {
      out.format = 'date';
      continue;
    }
    if (key === 'description' && typeof value === 'string' && schema.pattern === DATE_PATTERN) {
      out[key] = value.replace(/ \(YYYY-MM-DD\)$/, '');
      continue;
    }
    if (key === 'maximum' && typeof value === 'number' && value >= UNREACHED_MAXIMUM) continue;
    if (output && (key === 'required' || (key === 'additionalProperties' && value !== false))) continue;
    if (output && key === 'additionalProperties') continue;
    // `additionalProperties: {}` means "anything", which is already the default.
    if (key === 'additionalProperties' && value && typeof value === 'object' && Object.keys(value).length === 0) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([name, property]) => [name, prune(property, keepDescriptions, depth + 1, output)]),
      );
      continue;
    }
    // An output list of free-form rows is just a list; a nullable object just `["object", "null"]`.
    if (output && key === 'items' && isFreeFormObject(value)) continue;
    if (output && key === 'anyOf' && Array.isArray(value) && value.length === 2 && isFreeFormObject(value[0]) && (value[1] as Json)?.type === 'null') {
      out.type = ['object', 'null'];
      continue;
    }
    if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object' && !Array.isArray(value)) {
      // Nested shapes (a row's members, a list's items) are documented by the description of the key that holds them.
      out[key] = prune(value as Json, false, depth + 1, output);
      continue;
    }
    if (key === 'anyOf' && Array.isArray(value)) {
      out[key] = value.map((v) => prune(v as Json, false, depth + 1, output));
      continue;
    }
    out[key] = value;
  }
  return out;
}

function isFreeFormObject(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const v = value as Json;
  return v.type === 'object' && !v.properties && Object.keys(v).every((k) => k === 'type' || k === 'additionalProperties' || k === 'description');
}

/**
 * The paging fields every list tool shares, and the row shape, published
 * bare: the server's instructions say once what they mean (limit: page size,
 * clamped to its range; offset: rows to skip; fields: compact or full).
 */
function paging(field: string, property: Json): Json | null {
  if (field === 'offset') return { type: 'integer' };
  if (field === 'limit') return { type: 'integer', maximum: property.maximum, default: property.default };
  // The row shape every record-listing tool shares (lib/rows.ts), likewise explained once.
  if (field === 'fields' && JSON.stringify(property.enum) === JSON.stringify(ROW_SHAPES)) return { enum: [...ROW_SHAPES] };
  return null;
}

/** A property without what its other members already say (`type` beside `enum`) or what no sensible call hits (a minimum of 0, a length of 1, 20+ items). */
function lean(property: Json): Json {
  const out: Json = { ...property };
  if (Array.isArray(out.enum)) delete out.type;
  if (out.minimum === 0) delete out.minimum;
  if (out.minLength === 1) delete out.minLength;
  if (typeof out.maxItems === 'number' && out.maxItems >= 20) delete out.maxItems;
  if (out.items && typeof out.items === 'object') out.items = lean(out.items as Json);
  return out;
}

/**
 * The published input schema: the one calls are parsed with, every field
 * described, nothing else. A tool over a record set this deployment does not
 * hold publishes its required fields only: no filter of it can change its
 * answer (status no_data), so an agent need not read them.
 */
export function publishedInput(def: ToolDef): Json {
  const schema = prune(zodToJsonSchema(inputSchema(def), { ...JSON_SCHEMA_OPTIONS, pipeStrategy: 'input' }) as Json, true, 0);
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [field, property] of Object.entries(properties)) {
      if ((def.holdsNoData && !required.has(field)) || def.aliases?.[field]) delete properties[field];
      else properties[field] = paging(field, property) ?? lean(property);
    }
  }
  return schema;
}

/** The published output schema: the payload keys with their types (the envelope every answer shares is in the server's instructions). */
export function publishedOutput(def: ToolDef): Json {
  const shape = z.object(def.output).passthrough();
  const schema = zodToJsonSchema(shape, { ...JSON_SCHEMA_OPTIONS, pipeStrategy: 'output' }) as Json;
  return prune(schema, false, 0, true);
}
