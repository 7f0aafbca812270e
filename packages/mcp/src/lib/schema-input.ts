// A tool input from the plain JSON Schema the API's specs publish
// (generated/: record-set filters, programme search's parameters): one
// function, so a parameter reads the same in every tool built from a spec.
import { z, type ZodTypeAny } from 'zod';

/** The JSON Schema subset the specs publish: a scalar, or an array of scalars. */
export interface PublishedSchema {
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'array';
  readonly format?: 'date';
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly default?: string | number | boolean;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxItems?: number;
  readonly items?: PublishedSchema;
}

function scalar(s: PublishedSchema): ZodTypeAny {
  if (s.enum) return z.enum(s.enum as [string, ...string[]]);
  if (s.type === 'string') {
    let text = z.string();
    if (s.minLength !== undefined) text = text.min(s.minLength);
    if (s.maxLength !== undefined) text = text.max(s.maxLength);
    if (s.pattern !== undefined) text = text.regex(new RegExp(s.pattern), `must match ${s.pattern}`);
    return text;
  }
  if (s.type === 'boolean') return z.boolean();
  let number = s.type === 'integer' ? z.number().int() : z.number();
  if (s.minimum !== undefined) number = number.min(s.minimum);
  if (s.maximum !== undefined) number = number.max(s.maximum);
  return number;
}

/** The zod type of a parameter: optional, or with its default; described (`fallback` when the schema has no description). */
export function schemaInput(s: PublishedSchema, fallback: string): ZodTypeAny {
  let type: ZodTypeAny;
  if (s.type === 'array') {
    let list = z.array(scalar(s.items ?? { type: 'string' }));
    if (s.maxItems !== undefined) list = list.max(s.maxItems);
    type = list;
  } else type = scalar(s);
  return (s.default !== undefined ? type.default(s.default) : type.optional()).describe(s.description ?? fallback);
}
