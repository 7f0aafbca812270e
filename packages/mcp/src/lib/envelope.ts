// The result envelope: every result carries `structuredContent` and the same
// JSON as text, with the tool's payload keys plus the additive envelope keys
// of the tool surface (status, result_count, explanation, …).
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Payload, ToolDef } from './define.ts';
import { PROTOCOL_VERSION } from './protocol.ts';

export const API_VERSION = 'v1';

export type Status = 'ok' | 'empty' | 'error' | 'no_data';

const ENVELOPE_KEYS = {
  status: z.enum(['ok', 'empty', 'error', 'no_data']).describe('ok, empty (no matching records), error, or no_data (this deployment holds no such records)'),
  result_count: z.number().int().describe('Number of records in this result'),
  explanation: z.string().nullable().describe('One-line account of what was returned or why nothing was'),
  suggested_actions: z.array(z.string()).describe('Follow-up calls that may help'),
  api_version: z.string().describe('REST API version the tool called'),
  tool_name: z.string().describe('Name of the tool that produced this result'),
  query_echo: z.record(z.unknown()).describe('The arguments as the tool understood them'),
  latency_ms: z.number().describe('Time the tool took, in milliseconds'),
  evidence_source_count: z.number().int().describe('Distinct source URLs in the result'),
  meta: z.record(z.unknown()).describe('Protocol and data notes'),
  input_warnings: z
    .array(z.object({ code: z.string(), field: z.string(), message: z.string() }))
    .optional()
    .describe('Input that was clamped, normalised or ignored'),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
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

function countSources(payload: Payload): number {
  const urls = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 5 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'source_url' || k === 'official_url') && typeof x === 'string' && x) urls.add(x);
      else if (k === 'source_urls' && Array.isArray(x)) {
        for (const u of x) if (typeof u === 'string') urls.add(u);
      } else if (k !== 'attribution') walk(x, depth + 1);
    }
  };
  walk(payload, 0);
  return urls.size;
}

export interface EnvelopeContext {
  toolName: string;
  started: number;
  echo: Record<string, unknown>;
  warnings: readonly { code: string; field: string; message: string }[];
}

/** The envelope keys for a payload with the given status. */
export function envelope(ctx: EnvelopeContext, status: Status, payload: Payload): Payload {
  return {
    status,
    result_count: status === 'error' || status === 'no_data' ? 0 : countResults(payload),
    explanation: typeof payload.explanation === 'string' ? payload.explanation : null,
    suggested_actions: Array.isArray(payload.suggested_actions) ? payload.suggested_actions : [],
    api_version: API_VERSION,
    tool_name: ctx.toolName,
    query_echo: ctx.echo,
    latency_ms: Math.round((performance.now() - ctx.started) * 10) / 10,
    evidence_source_count: countSources(payload),
    meta: { protocol_version: PROTOCOL_VERSION, ...(payload.meta && typeof payload.meta === 'object' ? (payload.meta as object) : {}) },
    ...(ctx.warnings.length > 0 ? { input_warnings: [...ctx.warnings] } : {}),
  };
}

export function toResult(structured: Payload, isError = false): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  if (isError) result.isError = true;
  return result;
}
