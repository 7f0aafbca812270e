// The public part of programme search's parameter table: what the MCP tools
// need to build their inputs (each parameter's tool name, REST name, kind and
// plain JSON Schema with the tool's description) and nothing of the server.
// `npm run gen:tool-specs` writes it into packages/mcp/src/generated/, so the
// tools are produced from the table without importing the API server; a
// drift test keeps the written copy equal to the table.
import type { TSchema } from 'typebox';
import type { ParameterKind, ProgramSearchParameter } from './parameters.ts';

/** The JSON Schema subset the parameters use: a scalar, or an array of scalars. */
export interface ToolSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  enum?: string[];
  default?: string | number | boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: Omit<ToolSchema, 'items' | 'description' | 'default'>;
}

export interface PublicSearchParameter {
  /** The tool's input name. */
  name: string;
  /** The REST query parameter it is sent as. */
  rest: string;
  kind: ParameterKind;
  schema: ToolSchema;
  /** A value the tool normalises before sending (prefecture aliases such as 東京 -> 東京都). */
  vocabulary?: 'prefecture';
}

/** A TypeBox type as plain JSON Schema; a union of literals becomes an enum. */
function plain(type: TSchema): ToolSchema {
  const json = JSON.parse(JSON.stringify(type)) as ToolSchema & { anyOf?: { const: string }[] };
  if (json.anyOf) {
    const { anyOf, ...rest } = json;
    return { ...rest, type: 'string', enum: anyOf.map((member) => member.const) };
  }
  if (json.items) json.items = plain(json.items as TSchema);
  return json;
}

export function publicSearchParameters(table: readonly ProgramSearchParameter[]): PublicSearchParameter[] {
  return table
    .filter((p) => !p.tool.hidden)
    .map((p) => {
      const schema = plain(p.schema);
      const view = p.tool;
      if (view.description !== undefined) schema.description = view.description;
      if (view.default !== undefined) schema.default = view.default;
      if (view.values !== undefined) {
        if (schema.type === 'array' && schema.items) schema.items = { ...schema.items, enum: [...view.values] };
        else schema.enum = [...view.values];
      }
      return { name: view.name ?? p.name, rest: p.name, kind: p.kind, schema, ...(view.vocabulary ? { vocabulary: view.vocabulary } : {}) };
    });
}
