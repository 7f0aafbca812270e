// The result envelope: every result carries `structuredContent` and the same
// JSON as text, with the tool's payload keys plus a few envelope keys: the
// status, the count, one sentence of explanation, what the answer covered
// (when the tool can say), input warnings and the error. Kept small on
// purpose (decision 0390): an agent pays for every character of every answer,
// so nothing per call repeats what it already knows (the tool's name, its own
// arguments, the API version, a timing).
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Payload, ToolDef } from './define.ts';

export type Status = 'ok' | 'empty' | 'error' | 'no_data' | 'insufficient_data';

export const STATUSES = ['ok', 'empty', 'no_data', 'insufficient_data', 'error'] as const;

/** The status as published in every output schema. */
export const statusSchema = () =>
  z
    .enum(STATUSES)
    .describe('ok; empty (nothing matched: see coverage); no_data (record set not held); insufficient_data (the catalogue cannot support an answer); error');

const ENVELOPE_KEYS = {
  status: statusSchema(),
  result_count: z.number().int().describe('Number of records in this result'),
  explanation: z.string().nullable().describe('One-line account of what was returned or why nothing was'),
  coverage: z.record(z.unknown()).optional().describe('What the answer covered: records or rules looked at, the period, how many carry the matched field'),
  suggested_actions: z.array(z.string()).optional().describe('Follow-up calls that may help'),
  meta: z.record(z.unknown()).optional().describe('Data notes'),
  input_warnings: z
    .array(z.object({ code: z.string(), field: z.string(), message: z.string() }))
    .optional()
    .describe('Input that was clamped, normalised or ignored'),
  attribution: z
    .array(z.object({ source: z.string(), source_url: z.string(), license: z.string() }).passthrough())
    .optional()
    .describe('Licence and source credit of the data in this answer, once (one entry per source)'),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      detail: z.string().optional(),
      hint: z.string().optional(),
      retry_with: z.array(z.unknown()).optional(),
      status: z.number().int().optional(),
      request_id: z.string().nullable().optional(),
    })
    .optional()
    .describe('Set when the call could not be answered; the payload keys are then empty'),
};

const outputSchemas = new WeakMap<ToolDef, z.ZodTypeAny>();

/** The output schema: the tool's payload keys plus the envelope; further keys allowed (records pass through). Built once per tool. */
export function outputSchema(def: ToolDef): z.ZodTypeAny {
  let schema = outputSchemas.get(def);
  if (!schema) outputSchemas.set(def, (schema = z.object({ ...def.output, ...ENVELOPE_KEYS }).passthrough()));
  return schema;
}

export function countResults(payload: Payload): number {
  if (typeof payload.result_count === 'number') return payload.result_count;
  for (const key of ['results', 'hits', 'programs', 'items']) {
    const v = payload[key];
    if (Array.isArray(v)) return v.length;
  }
  if ('record' in payload) return payload.record && typeof payload.record === 'object' ? 1 : 0;
  return 1;
}

export interface EnvelopeContext {
  toolName: string;
  warnings: readonly { code: string; field: string; message: string }[];
}

/** The envelope keys for a payload with the given status (optional keys only when they say something). */
export function envelope(ctx: EnvelopeContext, status: Status, payload: Payload): Payload {
  const actions = Array.isArray(payload.suggested_actions) && payload.suggested_actions.length > 0 ? payload.suggested_actions : undefined;
  const meta = payload.meta && typeof payload.meta === 'object' && Object.keys(payload.meta).length > 0 ? payload.meta : undefined;
  return {
    status,
    result_count: status === 'ok' || status === 'empty' ? countResults(payload) : 0,
    explanation: typeof payload.explanation === 'string' ? payload.explanation : null,
    ...(payload.coverage && typeof payload.coverage === 'object' ? { coverage: payload.coverage } : {}),
    ...(actions ? { suggested_actions: actions } : {}),
    ...(meta ? { meta } : {}),
    ...(ctx.warnings.length > 0 ? { input_warnings: [...ctx.warnings] } : {}),
  };
}

/** Envelope keys left out when they say nothing (a payload's own `meta: null` included). */
const OPTIONAL_KEYS = ['coverage', 'suggested_actions', 'meta'] as const;

export function toResult(structured: Payload, isError = false): CallToolResult {
  for (const key of OPTIONAL_KEYS) {
    const value = structured[key];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) delete structured[key];
  }
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  if (isError) result.isError = true;
  return result;
}
