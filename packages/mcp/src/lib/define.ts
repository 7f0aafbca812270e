// What a tool is: a plain definition (name, title, description, zod input
// shape with a description on every field, output shape, annotations, the
// empty payload an input error still carries, the run function). One file
// per tool under tools/ holds one `defineTool({...})`.
import type { z, ZodRawShape } from 'zod';
import type { ToolApi } from './api.ts';
import { fieldsInput } from './rows.ts';

export type Payload = Record<string, unknown>;
/** A record as the API returns it. */
export type Row = Record<string, unknown>;
/** A business profile as free-form fields. */
export type Profile = Record<string, unknown>;

export interface InputWarning {
  code: string;
  field: string;
  message: string;
}

/** Per-call context handed to a tool's run function. */
export interface ToolCall {
  api: ToolApi;
  /** Add an `input_warnings` entry (e.g. an alias normalised, a filter dropped). */
  warn(warning: InputWarning): void;
}

/** The tools only read: they call GET endpoints (and read-only POSTs) of the API. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** A tool of an optional toolset that changes the caller's own state (a saved search). */
export const WRITES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;
/** A tool that deletes something of the caller's (idempotent: deleting twice answers not found). */
export const DELETES = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface ToolDef<S extends ZodRawShape = ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Main payload keys of a successful result (envelope keys are added for every tool). */
  output: ZodRawShape;
  annotations: ToolAnnotations;
  /** The payload keys, empty, that an input-error result still carries. */
  empty: Payload;
  /**
   * Parameters the tool accepts (the reference surface has them) but cannot
   * apply, with the reason. They are named in the published description and
   * a call that sets one gets an `unsupported_filter` warning (lib/not-applied.ts).
   */
  notApplied?: { readonly [K in keyof S]?: string };
  /**
   * Parameters that are another name of a published one (the reference
   * surface has both): accepted, not published, so an agent learns one name
   * per thing (decision 0390). Maps the alias to the published name.
   */
  aliases?: { readonly [K in keyof S]?: string };
  /** The tool is over a record set this deployment does not hold: every call answers no_data, so only its required fields are published. */
  holdsNoData?: true;
  /**
   * Payload keys holding records (lists, or containers of them): compact
   * unless the call asks `fields: "full"` (lib/rows.ts, decision 0395).
   * The tool gets a `fields` input unless it declares its own.
   */
  rows?: readonly string[];
  run(call: ToolCall, args: z.infer<z.ZodObject<S>>): Promise<Payload>;
}

export function defineTool<S extends ZodRawShape>(def: ToolDef<S>): ToolDef<S> {
  if (!def.rows || 'fields' in def.input) return def;
  return { ...def, input: { ...def.input, fields: fieldsInput() } };
}

/** Thrown by a run function for input the schema cannot express (an empty list, an unknown id form, …). */
export class ToolInputError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly retryWith: unknown[] | undefined;
  /** The `{detail}` text, worded as REST words a 400 (`Invalid <part>: <field>: <message>`). */
  readonly detail: string;
  constructor(code: string, message: string, hint?: string, retryWith?: unknown[], detail?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
    this.retryWith = retryWith;
    this.detail = detail ?? `Invalid arguments: ${message}`;
  }
}
