// The search and get tools of a record set, built from the public part of its
// spec (generated/record-sets.ts, written by `npm run gen:tool-specs`
// from packages/api/src/catalog/record-sets) over the set's typed client resource.
// Every parameter a search tool advertises is a filter of the REST search and
// is sent as that filter; a tool file only adds what is the tool's own
// (a parameter it maps itself, or one it declares not applied).
import { z, type ZodRawShape, type ZodTypeAny } from 'zod';
import { defineTool, READ_ONLY, type Payload, type Row, type ToolCall, type ToolDef } from './define.ts';
import { f, o, RECORD_EMPTY, SEARCH_EMPTY, searchOutput } from './fields.ts';
import { prefectureArg } from './prefecture.ts';
import { explainEmpty } from './coverage.ts';
import { asSearch, compact } from './search.ts';
import { schemaInput } from './schema-input.ts';

/** A tool parameter's JSON Schema, as the spec's filter types it (PublicRecordSet in packages/api/src/catalog/record-sets/public.ts). */
interface ParamSchema {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly format?: 'date';
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

interface ToolParam {
  readonly name: string;
  readonly filter: string;
  readonly schema: ParamSchema;
  readonly vocabulary?: 'prefecture';
}

/** What the tools read of a record set's public part. */
export interface RecordSetTools {
  readonly name: string;
  readonly search?: {
    readonly name: string;
    readonly title: string;
    readonly description: string;
    readonly q: string;
    readonly noun: string;
    readonly params: readonly ToolParam[];
    readonly fixed: Readonly<Record<string, string | number | boolean>>;
  };
  readonly get?: {
    readonly name: string;
    readonly title: string;
    readonly description: string;
    readonly id: { readonly name: string; readonly description: string; readonly pattern?: string; readonly example?: string; readonly numeric?: boolean };
  };
}

/** The typed client resource of a set (`client.enforcement`, …): its search and get. */
export interface RecordSetResource {
  search(query: never): Promise<unknown>;
  get(id: never): Promise<unknown>;
}

/** The zod type of one parameter, from its JSON Schema (every filter parameter is optional). */
function paramInput(param: ToolParam): ZodTypeAny {
  const s = param.schema;
  const description = s.description ?? param.name;
  // The shared builders, so these read as in every other tool (f.date adds the format to the description).
  if (param.vocabulary === 'prefecture') return f.prefecture();
  if (s.format === 'date') return f.date(description.replace(/ \(YYYY-MM-DD\)$/, ''));
  return schemaInput(s, param.name);
}

export interface SearchToolOptions {
  /** Parameters of the tool's own, beside the spec's filters. */
  input?: ZodRawShape;
  /** Of those, the ones the tool accepts but cannot apply, with the reason (lib/not-applied.ts). */
  notApplied?: Record<string, string>;
  /** Query parameters the tool derives from its own parameters. */
  query?(args: Record<string, unknown>): Record<string, unknown>;
}

/** The search tool of a record set: q, the spec's filters under the tool's names, limit, offset. */
export function recordSearchTool(set: RecordSetTools, resource: (api: ToolCall['api']) => RecordSetResource, options: SearchToolOptions = {}): ToolDef {
  const spec = set.search;
  if (!spec) throw new Error(`record set ${set.name} has no search tool in its spec`);
  const input: ZodRawShape = {
    q: f.q(spec.q),
    ...Object.fromEntries(spec.params.map((param) => [param.name, paramInput(param)])),
    limit: f.limit(100, 20, spec.noun),
    offset: f.offset(),
    ...options.input,
  };
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input,
    output: searchOutput(),
    annotations: READ_ONLY,
    rows: ['results'],
    empty: SEARCH_EMPTY,
    notApplied: options.notApplied,
    async run(call, a): Promise<Payload> {
      const filters: Record<string, unknown> = {};
      for (const param of spec.params) {
        const value = a[param.name];
        filters[param.filter] = param.vocabulary === 'prefecture' ? prefectureArg(call, value as string | undefined, param.name) : value;
      }
      const query = compact({ q: a.q, ...filters, ...spec.fixed, ...options.query?.(a), limit: a.limit, offset: a.offset });
      const out = asSearch(await resource(call.api).search(query as never));
      return (out.results as unknown[]).length > 0 ? out : await explainEmpty(call.api, set.name, spec.noun, out);
    },
  });
}

/** The get tool of a record set: one record by the id its search returns. */
export function recordGetTool(set: RecordSetTools, resource: (api: ToolCall['api']) => RecordSetResource): ToolDef {
  const spec = set.get;
  if (!spec) throw new Error(`record set ${set.name} has no get tool in its spec`);
  const { id } = spec;
  const text = id.pattern ? z.string().regex(new RegExp(id.pattern), `must look like ${id.example ?? id.pattern}`) : z.string().min(1).max(200);
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: { [id.name]: (id.numeric ? z.union([z.number().int(), text]) : text).describe(id.description) },
    output: { record: o.record() },
    annotations: READ_ONLY,
    empty: RECORD_EMPTY,
    async run(call, a) {
      const record = (await resource(call.api).get(a[id.name] as never)) as Row;
      return { record };
    },
  });
}
