// The inputs of the tools over programme search (search_programs,
// create_saved_search), produced from the public part of the API's parameter
// table (generated/program-search.ts, written by `npm run gen:tool-specs`), and
// the REST query a call's arguments become. A new search filter in the API is
// a new input here without an edit.
import type { ZodRawShape } from 'zod';
import { PROGRAM_SEARCH_PARAMETERS } from '../generated/program-search.ts';
import type { ToolCall } from './define.ts';
import { f } from './fields.ts';
import { prefectureArg } from './prefecture.ts';
import { schemaInput, type PublishedSchema } from './schema-input.ts';
import { compact } from './search.ts';

type Kind = (typeof PROGRAM_SEARCH_PARAMETERS)[number]['kind'];
/** One published parameter (PublicSearchParameter in packages/api/src/catalog/programs/public.ts). */
export interface Parameter {
  readonly name: string;
  readonly rest: string;
  readonly kind: Kind;
  readonly schema: PublishedSchema;
  readonly vocabulary?: 'prefecture';
}
const PARAMETERS: readonly Parameter[] = PROGRAM_SEARCH_PARAMETERS;

/** What a search selects (kept by a saved search): text, filters, order. */
export const SAVED_KINDS: readonly Kind[] = ['text', 'filter', 'order'];
/** What one page of a search takes besides: paging and shape. */
export const PAGE_KINDS: readonly Kind[] = [...SAVED_KINDS, 'page', 'shape'];

const of = (kinds: readonly Kind[], parameters: readonly Parameter[]) => parameters.filter((p) => kinds.includes(p.kind));

/** The tool inputs of the parameters of these kinds, in the table's order. */
export function programSearchInput(kinds: readonly Kind[], parameters: readonly Parameter[] = PARAMETERS): ZodRawShape {
  return Object.fromEntries(of(kinds, parameters).map((p) => [p.name, p.vocabulary === 'prefecture' ? f.prefecture() : schemaInput(p.schema, p.name)]));
}

/** The REST query of a call's arguments (tool names to REST names; prefecture aliases normalised, with a warning for an unknown one). */
export function programSearchQuery(
  call: ToolCall,
  args: Record<string, unknown>,
  kinds: readonly Kind[],
  parameters: readonly Parameter[] = PARAMETERS,
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const p of of(kinds, parameters)) {
    const value = args[p.name];
    query[p.rest] = p.vocabulary === 'prefecture' ? prefectureArg(call, value as string | undefined, p.name) : value;
  }
  return compact(query);
}
