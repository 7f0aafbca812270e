// The tool framework: a tool is a plain definition (name, description, zod
// input shape, output shape, empty payload, run function); `registerTool`
// puts it on an McpServer and `callTool` runs it with the conventions of the
// 55-tool surface:
// - bad input never becomes a protocol error: the result is a normal one with
//   `{error: {code, message, hint?, retry_with?}}` and the tool's empty payload
//   keys; `limit`-like fields out of range are clamped with `input_warnings`;
// - an API error (401/402/404/429/5xx) becomes `isError: true` with the HTTP
//   status and detail;
// - every result carries `structuredContent` and the same JSON as text, plus
//   the additive envelope keys.
import { z, type ZodRawShape, type ZodTypeAny } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { apiErrorInfo, type Api } from '../api.ts';
import { normalizePrefecture } from '@jp-support/vocab';

export const API_VERSION = 'v1';
export const PROTOCOL_VERSION = '2025-06-18';

export type Payload = Record<string, unknown>;

export interface InputWarning {
  code: string;
  field: string;
  message: string;
}

/** Per-call context handed to a tool's run function. */
export interface ToolCall {
  api: Api;
  /** Add an `input_warnings` entry (e.g. an alias normalised, a filter dropped). */
  warn(warning: InputWarning): void;
}

export interface ToolDef<S extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Main payload keys of a successful result (envelope keys are added for every tool). */
  output: ZodRawShape;
  /** The payload keys, empty, that an input-error result still carries. */
  empty: Payload;
  run(call: ToolCall, args: z.infer<z.ZodObject<S>>): Promise<Payload>;
}

export function defineTool<S extends ZodRawShape>(def: ToolDef<S>): ToolDef<S> {
  return def;
}

/** Thrown by a run function for input the schema cannot express (an empty list, an unknown id form, …). */
export class ToolInputError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly retryWith: unknown[] | undefined;
  constructor(code: string, message: string, hint?: string, retryWith?: unknown[]) {
    super(message);
    this.code = code;
    this.hint = hint;
    this.retryWith = retryWith;
  }
}

// ---------------------------------------------------------------------------
// Lenient parsing. The published JSON Schema keeps every constraint (enums,
// bounds, patterns, required), but the SDK's own validation must never reject
// a call: each field is wrapped in a catch that turns a failure into a marker
// our validation then reports (or clamps) the way the conventions say.

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

/** Fields clamped into range instead of rejected. */
const CLAMPED = /(^|_)limit($|_)|^max_edges$|^max_hops$|^top_bids$/;

interface Checked {
  args: Record<string, unknown>;
  warnings: InputWarning[];
}

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
    return new ToolInputError('invalid_enum', `${where}: ${JSON.stringify((issue as { received: unknown }).received)} is not one of ${options.join(', ')}`, `Use one of: ${options.join(', ')}`, options);
  }
  if (issue.code === 'invalid_type' && (issue as { received: string }).received === 'undefined' && issue.path.length <= 1) {
    return new ToolInputError('invalid_field', `${field} is required`, `Pass ${field}.`);
  }
  if (issue.code === 'too_small' && (issue as { minimum: number | bigint }).minimum === 1 && ((issue as { type: string }).type === 'array' || (issue as { type: string }).type === 'string')) {
    return new ToolInputError('empty_input', `${where} must not be empty`, `Pass at least one value in ${where}.`);
  }
  if (issue.code === 'too_big' && (issue as { type: string }).type === 'array') {
    const max = (issue as { maximum: number | bigint }).maximum;
    return new ToolInputError('limit_exceeded', `${where} accepts at most ${max} values (got ${Array.isArray(marker.input) ? marker.input.length : '?'})`, `Split the call into chunks of ${max}.`);
  }
  return new ToolInputError('invalid_field', `${where}: ${issue.message}`);
}

// ---------------------------------------------------------------------------
// Results.

const ENVELOPE_KEYS = {
  status: z.enum(['ok', 'empty', 'error']).describe('ok, empty (no matching records) or error'),
  result_count: z.number().int().describe('Number of records in this result'),
  explanation: z.string().nullable().describe('One-line account of what was returned or why nothing was'),
  suggested_actions: z.array(z.string()).describe('Follow-up calls that may help'),
  api_version: z.string().describe('REST API version the tool called'),
  tool_name: z.string().describe('Name of the tool that produced this result'),
  query_echo: z.record(z.unknown()).describe('The arguments as the tool understood them'),
  latency_ms: z.number().describe('Time the tool took, in milliseconds'),
  evidence_source_count: z.number().int().describe('Distinct source URLs in the result'),
  meta: z.record(z.unknown()).describe('Protocol and data notes'),
  input_warnings: z.array(z.object({ code: z.string(), field: z.string(), message: z.string() })).optional().describe('Input that was clamped, normalised or ignored'),
  error: z.object({
    code: z.string(),
    message: z.string(),
    hint: z.string().optional(),
    retry_with: z.array(z.unknown()).optional(),
    status: z.number().int().optional(),
    request_id: z.string().nullable().optional(),
  }).optional().describe('Set when the call could not be answered; the payload keys are then empty'),
};

/** The output schema: the tool's payload keys plus the envelope; further keys allowed (records pass through). */
export function outputSchema(def: ToolDef) {
  return z.object({ ...def.output, ...ENVELOPE_KEYS }).passthrough();
}

function countResults(payload: Payload): number {
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

function toResult(structured: Payload, isError = false): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  if (isError) result.isError = true;
  return result;
}

/** Run a tool for already-SDK-parsed arguments (fields may carry invalid markers). */
export async function callTool(def: ToolDef, api: Api, rawArgs: Record<string, unknown>): Promise<CallToolResult> {
  const started = performance.now();
  const warnings: InputWarning[] = [];
  let echo: Record<string, unknown> = {};
  const envelope = (status: 'ok' | 'empty' | 'error', payload: Payload) => ({
    status,
    result_count: status === 'error' ? 0 : countResults(payload),
    explanation: typeof payload.explanation === 'string' ? payload.explanation : null,
    suggested_actions: Array.isArray(payload.suggested_actions) ? payload.suggested_actions : [],
    api_version: API_VERSION,
    tool_name: def.name,
    query_echo: echo,
    latency_ms: Math.round((performance.now() - started) * 10) / 10,
    evidence_source_count: countSources(payload),
    meta: { protocol_version: PROTOCOL_VERSION, ...(payload.meta && typeof payload.meta === 'object' ? payload.meta as object : {}) },
    ...(warnings.length > 0 ? { input_warnings: warnings } : {}),
  });
  try {
    const checked = checkArgs(rawArgs);
    warnings.push(...checked.warnings);
    echo = checked.args;
    const call: ToolCall = { api, warn: (w) => void warnings.push(w) };
    const payload = await def.run(call, checked.args as never);
    if (payload.error === null) delete payload.error;
    if (payload.error && typeof payload.error === 'object') {
      return toResult({ ...def.empty, ...payload, ...envelope('error', payload), error: payload.error });
    }
    const status = countResults(payload) === 0 ? 'empty' : 'ok';
    const result = toResult({ ...payload, ...envelope(status, payload) });
    // A result our own output schema rejects is a bug to surface plainly, not a protocol error.
    const check = outputSchema(def).safeParse(result.structuredContent);
    if (!check.success) throw new Error(`output does not match the schema: ${check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return result;
  } catch (err) {
    if (err instanceof ToolInputError) {
      const error = {
        code: err.code,
        message: err.message,
        ...(err.hint ? { hint: err.hint } : {}),
        ...(err.retryWith ? { retry_with: err.retryWith } : {}),
      };
      const payload = { ...def.empty, explanation: err.message };
      return toResult({ ...payload, ...envelope('error', payload), error });
    }
    const info = apiErrorInfo(err);
    if (info) {
      const message = `API error ${info.status}: ${info.detail}`;
      const error = { code: apiErrorCode(info.status), message, status: info.status, request_id: info.requestId, ...apiHint(info.status) };
      const payload = { ...def.empty, explanation: message };
      return toResult({ ...payload, ...envelope('error', payload), error }, true);
    }
    const message = `Tool ${def.name} failed: ${err instanceof Error ? err.message : String(err)}`;
    const payload = { ...def.empty, explanation: message };
    return toResult({ ...payload, ...envelope('error', payload), error: { code: 'internal_error', message } }, true);
  }
}

function apiErrorCode(status: number): string {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 402) return 'cap_reached';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'bad_request';
  return status >= 500 ? 'server_error' : 'api_error';
}

function apiHint(status: number): { hint?: string } {
  if (status === 401 || status === 403) return { hint: 'Check the API key (JPSP_API_KEY / X-API-Key): it is invalid or revoked.' };
  if (status === 402) return { hint: 'The monthly spend cap of this key is reached; raise or remove it with POST /v1/me/cap.' };
  if (status === 404) return { hint: 'The id does not exist; find valid ids with the matching search tool.' };
  if (status === 429) return { hint: 'The daily limit is used up; retry after the reset or use a paid key.' };
  if (status >= 500) return { hint: 'The API failed; retry later.' };
  return {};
}

export function registerTool(server: McpServer, def: ToolDef, api: Api): void {
  server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: lenientShape(def.input),
      outputSchema: outputSchema(def),
      annotations: { title: def.title, readOnlyHint: true, openWorldHint: false },
    },
    ((args: Record<string, unknown>) => callTool(def, api, args ?? {})) as never,
  );
}

// ---------------------------------------------------------------------------
// Shared field builders and helpers for tool definitions.

export const f = {
  limit: (max: number, dflt: number, what = 'results') =>
    z.number().int().min(1).max(max).default(dflt).describe(`Maximum ${what} to return, 1 to ${max} (default ${dflt}); out-of-range values are clamped`),
  offset: () => z.number().int().min(0).max(1_000_000).default(0).describe('Rows to skip for paging (default 0)'),
  prefecture: () => z.string().max(20).optional().describe("Prefecture name, e.g. 東京都; aliases like '東京' or 'Tokyo' are normalised"),
  q: (what: string) => z.string().max(500).optional().describe(`Free-text keywords matched against ${what}`),
  date: (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').optional().describe(`${what} (YYYY-MM-DD)`),
  asOf: () => z.string().regex(/^(today|\d{4}-\d{2}-\d{2})$/, "must be 'today' or YYYY-MM-DD").default('today').describe("Reference date: 'today' or YYYY-MM-DD"),
  houjin: (what = 'Corporate number (法人番号, 13 digits)') => z.string().regex(/^\d{13}$/, 'must be 13 digits').optional().describe(what),
  profile: () => z.record(z.unknown()).describe('Business profile as free-form fields, e.g. {prefecture, industry_jsic, employee_count, revenue_yen, is_sole_proprietor, capital_yen}'),
};

/** Output shape fragments. */
export const o = {
  rows: () => z.array(z.record(z.unknown())).describe('Matching records'),
  total: () => z.number().int().describe('Matching records before paging'),
  record: () => z.record(z.unknown()).nullable().describe('The record'),
  any: (what: string) => z.unknown().describe(what),
};

export const searchOutput = () => ({ total: o.total(), limit: z.number().int().optional().describe('Page size used'), offset: z.number().int().optional().describe('Offset used'), results: o.rows() });
export const SEARCH_EMPTY: Payload = { total: 0, results: [] };
export const RECORD_EMPTY: Payload = { record: null };

/** Normalise an optional prefecture argument; unknown names are dropped with a warning (never a silent 0-row filter). */
export function prefectureArg(call: ToolCall, value: string | undefined, field = 'prefecture'): string | undefined {
  if (value === undefined || value === '') return undefined;
  const name = normalizePrefecture(value);
  if (name === null) {
    call.warn({ code: 'unknown_prefecture', field, message: `'${value}' is not one of the 47 prefectures; the filter was not applied` });
    return undefined;
  }
  if (name !== value) call.warn({ code: 'normalised', field, message: `'${value}' was read as ${name}` });
  return name;
}

/** Today in Japan time, YYYY-MM-DD. */
export function todayJst(now = new Date()): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

export function resolveAsOf(value: string | undefined): string {
  return !value || value === 'today' ? todayJst() : value;
}

/** Keep only defined, non-empty query values. */
export function query(values: Record<string, unknown>): Record<string, string | number | boolean | (string | number | boolean)[]> {
  const out: Record<string, string | number | boolean | (string | number | boolean)[]> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out[k] = v as (string | number | boolean)[];
    } else out[k] = v as string | number | boolean;
  }
  return out;
}

/** A search envelope from an API answer: the list plus total/limit/offset, other top-level keys kept. */
export function asSearch(body: unknown): Payload {
  const b = (body ?? {}) as Payload;
  const results = Array.isArray(b.results) ? b.results : Array.isArray(body) ? body : [];
  return { ...b, total: typeof b.total === 'number' ? b.total : results.length, results };
}
