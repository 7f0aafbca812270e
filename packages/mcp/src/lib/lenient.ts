// Lenient parsing. The published JSON Schema keeps every constraint (enums,
// bounds, patterns, required), but parsing a call must never fail as a
// protocol error: each field is wrapped in a catch that turns a failure into
// a marker `checkArgs` then reports (or clamps) the way the conventions say:
// `{error: {code, message, hint?, retry_with?}}` for bad input, `limit`-like
// fields out of range clamped with an `input_warnings` entry.
import { z, type ZodRawShape, type ZodTypeAny } from 'zod';
import { ToolInputError, type InputWarning, type ToolDef } from './define.ts';

const INVALID = Symbol('invalid-input');
interface InvalidMarker {
  [INVALID]: true;
  input: unknown;
  issues: z.ZodIssue[];
}
const isInvalid = (v: unknown): v is InvalidMarker => typeof v === 'object' && v !== null && INVALID in v;

/** A catch that keeps the inner schema's optionality in the generated JSON Schema (so `required` survives). */
class LenientField extends z.ZodCatch<ZodTypeAny> {
  override isOptional(): boolean {
    return this._def.innerType.isOptional();
  }
  override isNullable(): boolean {
    return this._def.innerType.isNullable();
  }
}

function lenient(schema: ZodTypeAny): ZodTypeAny {
  const caught = schema.catch((ctx: { error: z.ZodError; input: unknown }) => ({ [INVALID]: true, input: ctx.input, issues: ctx.error.issues }) as never);
  return new LenientField(caught._def);
}

export function lenientShape(shape: ZodRawShape): ZodRawShape {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, lenient(v)]));
}

const inputSchemas = new WeakMap<ToolDef, z.ZodObject<ZodRawShape>>();

/** The object schema a call's arguments are parsed with (and the tools/list input schema is made from), built once per tool. */
export function inputSchema(def: ToolDef): z.ZodObject<ZodRawShape> {
  let schema = inputSchemas.get(def);
  if (!schema) inputSchemas.set(def, (schema = z.object(lenientShape(def.input))));
  return schema;
}

/** Fields clamped into range instead of rejected. */
const CLAMPED = /(^|_)limit($|_)|^max_edges$|^max_hops$|^top_bids$/;

interface Checked {
  args: Record<string, unknown>;
  warnings: InputWarning[];
}

/** Turn parsed arguments (fields may carry invalid markers) into clean ones plus warnings; throws ToolInputError for the first bad field. */
export function checkArgs(raw: Record<string, unknown>): Checked {
  const args: Record<string, unknown> = {};
  const warnings: InputWarning[] = [];
  for (const [field, value] of Object.entries(raw)) {
    if (!isInvalid(value)) {
      args[field] = value;
      continue;
    }
    const issue = value.issues[0];
    const numeric = typeof value.input === 'number' && Number.isFinite(value.input);
    if (numeric && CLAMPED.test(field) && issue && (issue.code === 'too_big' || issue.code === 'too_small')) {
      const bound = Number(issue.code === 'too_big' ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum);
      args[field] = bound;
      warnings.push({
        code: issue.code === 'too_big' ? 'limit_capped' : 'limit_raised',
        field,
        message: `${field}=${value.input} is out of range; ${bound} was used`,
      });
      continue;
    }
    throw fieldError(field, value);
  }
  return { args, warnings };
}

function fieldError(field: string, marker: InvalidMarker): ToolInputError {
  const issue = marker.issues[0];
  if (!issue) return new ToolInputError('invalid_field', `${field}: invalid value`);
  const where = issue.path.length > 1 ? issue.path.join('.') : field;
  if (issue.code === 'invalid_enum_value') {
    const options = (issue as { options: unknown[] }).options;
    return new ToolInputError(
      'invalid_enum',
      `${where}: ${JSON.stringify((issue as { received: unknown }).received)} is not one of ${options.join(', ')}`,
      `Use one of: ${options.join(', ')}`,
      options,
      `Invalid arguments: ${where}: must be one of ${options.join(', ')}`,
    );
  }
  if (issue.code === 'invalid_type' && (issue as { received: string }).received === 'undefined' && issue.path.length <= 1) {
    return new ToolInputError('invalid_field', `${field} is required`, `Pass ${field}.`);
  }
  if (
    issue.code === 'too_small' &&
    (issue as { minimum: number | bigint }).minimum === 1 &&
    ((issue as { type: string }).type === 'array' || (issue as { type: string }).type === 'string')
  ) {
    return new ToolInputError('empty_input', `${where} must not be empty`, `Pass at least one value in ${where}.`);
  }
  if (issue.code === 'too_big' && (issue as { type: string }).type === 'array') {
    const max = (issue as { maximum: number | bigint }).maximum;
    return new ToolInputError(
      'limit_exceeded',
      `${where} accepts at most ${max} values (got ${Array.isArray(marker.input) ? marker.input.length : '?'})`,
      `Split the call into chunks of ${max}.`,
    );
  }
  return new ToolInputError('invalid_field', `${where}: ${issue.message}`);
}
