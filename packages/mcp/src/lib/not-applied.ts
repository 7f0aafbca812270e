// Parameters a tool accepts but cannot apply (the one place for them: each
// tool lists them in `notApplied` with the reason). Never a silent filter:
// the published description names them, and a call that sets one to
// something other than its default gets an `unsupported_filter` warning.
// `grep -rn notApplied src/tools` lists every such parameter.
import { z, type ZodTypeAny } from 'zod';
import type { InputWarning, ToolDef } from './define.ts';

function notAppliedEntries(def: ToolDef): [string, string][] {
  return Object.entries(def.notApplied ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
}

function defaultOf(schema: ZodTypeAny | undefined): unknown {
  return schema instanceof z.ZodDefault ? (schema._def.defaultValue as () => unknown)() : undefined;
}

/** Warnings for the not-applied parameters this call sets. */
export function notAppliedWarnings(def: ToolDef, args: Record<string, unknown>): InputWarning[] {
  const out: InputWarning[] = [];
  for (const [field, why] of notAppliedEntries(def)) {
    const value = args[field];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(defaultOf(def.input[field]))) continue;
    out.push({ code: 'unsupported_filter', field, message: `${why}; ${field} was not applied` });
  }
  return out;
}

/** The tool description as published: the author's text plus the parameters it does not apply. */
export function publishedDescription(def: ToolDef): string {
  const entries = notAppliedEntries(def);
  if (entries.length === 0) return def.description;
  return `${def.description} Accepted but not applied: ${entries.map(([field, why]) => `${field} (${why})`).join('; ')}.`;
}

/** Mark the not-applied parameters in a published JSON Schema of the input. */
export function markNotApplied(def: ToolDef, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, { description?: string }> | undefined;
  for (const [field, why] of notAppliedEntries(def)) {
    const property = properties?.[field];
    if (property) property.description = `${property.description ?? field}. Not applied: ${why}`;
  }
  return schema;
}
