// Parameters a tool accepts but cannot apply (the one place for them: each
// tool lists them in `notApplied` with the reason). Never a silent filter:
// tools/list does not offer them, and a call that sets one to something
// other than its default gets an `unsupported_filter` warning with the reason.
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

/**
 * Remove the not-applied parameters from a published JSON Schema of the input:
 * an agent is shown only what works (decision 0390). A call that still sets
 * one (the reference surface has them) is accepted and warned.
 */
export function omitNotApplied(def: ToolDef, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | undefined;
  for (const [field] of notAppliedEntries(def)) if (properties) delete properties[field];
  return schema;
}

/** A note for each alias (lib/define.ts `aliases`) a call uses: the published name to use instead. */
export function aliasWarnings(def: ToolDef, args: Record<string, unknown>): InputWarning[] {
  return Object.entries(def.aliases ?? {})
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && args[entry[0]] !== undefined)
    .map(([alias, name]) => ({ code: 'alias', field: alias, message: `${alias} is another name of ${name}; use ${name}` }));
}
