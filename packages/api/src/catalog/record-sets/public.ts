// The public part of the record-set specs: what the MCP tools need (tool
// names and descriptions, each tool parameter with the REST filter it sets
// and its JSON Schema, the filters a tool always sets) and nothing of the
// server (no SQL, no table). `npm run gen:tool-specs`
// (scripts/gen-tool-specs.ts) writes it into packages/mcp, so the MCP
// package reads the specs without importing the API server; a drift test
// keeps the written copy equal to the specs.
import type { TSchema } from 'typebox';
import type { Filter, GetToolSpec, RecordSetSpec, SearchToolSpec } from './spec.ts';
import { isDateFilter } from './params.ts';

/** A JSON Schema fragment of one scalar parameter (the subset the filters use). */
export interface ParamSchema {
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** `date`: YYYY-MM-DD naming a real calendar day. */
  format?: 'date';
  description?: string;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface PublicToolParam {
  /** The tool's parameter name. */
  name: string;
  /** The REST query parameter it is sent as (the filter's own name). */
  filter: string;
  schema: ParamSchema;
  /** A value the tool normalises before sending (prefecture aliases such as 東京 -> 東京都). */
  vocabulary?: 'prefecture';
}

export interface PublicRecordSet {
  /** The REST path segment and client resource of the set. */
  name: string;
  search?: Omit<SearchToolSpec, 'params' | 'fixed'> & { params: PublicToolParam[]; fixed: NonNullable<SearchToolSpec['fixed']> };
  get?: GetToolSpec;
}

/** A filter's TypeBox type as a plain scalar JSON Schema (a union of literals becomes an enum). */
function paramSchema(type: TSchema): ParamSchema {
  const plain = JSON.parse(JSON.stringify(type)) as ParamSchema & { anyOf?: { const: string }[] };
  if (plain.anyOf) {
    const { anyOf, ...rest } = plain;
    return { ...rest, type: 'string', enum: anyOf.map((member) => member.const) };
  }
  return isDateFilter(type) ? { ...plain, format: 'date' } : plain;
}

function findFilter(spec: RecordSetSpec, name: string): Filter {
  const filter = spec.search.filters.find((f) => f.name === name || (f.aliases ?? []).includes(name));
  if (!filter) throw new Error(`record set ${spec.name}: a tool parameter names no filter: ${name}`);
  return filter;
}

export function publicPart(spec: RecordSetSpec): PublicRecordSet {
  const { search, get } = spec.tools ?? {};
  const out: PublicRecordSet = { name: spec.name };
  if (search) {
    const params = Object.entries(search.params).map(([name, use]): PublicToolParam => {
      const { filter: filterName, description, values } = typeof use === 'string' ? { filter: use } : use;
      const filter = findFilter(spec, filterName);
      const schema = paramSchema(filter.type);
      if (description) schema.description = description;
      if (values) schema.enum = [...values];
      return { name, filter: filter.name, schema, ...(filter.vocabulary ? { vocabulary: filter.vocabulary } : {}) };
    });
    for (const name of Object.keys(search.fixed ?? {})) findFilter(spec, name);
    out.search = { ...search, params, fixed: search.fixed ?? {} };
  }
  if (get) out.get = get;
  return out;
}
