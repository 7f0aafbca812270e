// The explore page's query: read from and written to the page URL (so a
// search can be shared), and turned into the API call. Which fields the form
// has comes from programme search's parameter table (the entries with a
// `form`, catalog/programs/parameters.ts): the server renders the controls
// and hands the same list to this script in the form's `data-fields`, so a
// new filter reaches the page without an edit here. Pure functions, used by
// the page script and by the server when it renders the form.

/** A form field as the page script needs it: its name, whether it repeats, and the values it allows (when closed). */
export interface FormField {
  name: string;
  multiple: boolean;
  /** The values a select or checkboxes accept; absent for free text and numbers. */
  options?: readonly string[];
  /** A number (of 万円, say): anything else is dropped. */
  numeric?: boolean;
}

export const PAGE_SIZE = 20;

export interface SearchState {
  /** Each field's values (one for a single field; several for checkboxes), empty when unset. */
  values: Record<string, string[]>;
  offset: number;
  /** The programme whose detail is open. */
  id: string;
  /** The selected programmes (checked for exclusions). */
  sel: string[];
}

const UNIFIED_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const NUMBER = /^\d+(\.\d+)?$/;

/** The state a page URL's query string describes; anything malformed is dropped. */
export function stateFromParams(params: URLSearchParams, fields: readonly FormField[]): SearchState {
  const text = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  const allowed = (field: FormField, value: string) =>
    value !== '' && (field.options === undefined || field.options.includes(value)) && (!field.numeric || NUMBER.test(value));
  const values: Record<string, string[]> = {};
  for (const field of fields) {
    const given = field.multiple ? params.getAll(field.name).map((v) => v.trim()) : [text(field.name)];
    values[field.name] = [...new Set(given.filter((v) => allowed(field, v)))];
  }
  const offset = Number(params.get('offset') ?? '0');
  return {
    values,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
    id: UNIFIED_ID.test(text('id')) ? text('id') : '',
    sel: [...new Set((params.get('sel') ?? '').split(',').filter((s) => UNIFIED_ID.test(s)))].slice(0, 50),
  };
}

/** The fields' values as query parameters (empty fields left out). */
function appendValues(params: URLSearchParams, state: SearchState, fields: readonly FormField[]): void {
  for (const field of fields) for (const value of state.values[field.name] ?? []) params.append(field.name, value);
}

/** The page URL's query string for a state (empty fields left out). */
export function paramsFromState(state: SearchState, fields: readonly FormField[]): URLSearchParams {
  const params = new URLSearchParams();
  appendValues(params, state, fields);
  if (state.offset) params.set('offset', String(state.offset));
  if (state.id) params.set('id', state.id);
  if (state.sel.length) params.set('sel', state.sel.join(','));
  return params;
}

/** The search call for a state: one page of the default shape; tier X asks for the excluded rows too. */
export function searchPath(state: SearchState, fields: readonly FormField[]): string {
  const params = new URLSearchParams();
  appendValues(params, state, fields);
  if ((state.values.tier ?? []).includes('X')) params.set('include_excluded', 'true');
  params.set('limit', String(PAGE_SIZE));
  params.set('offset', String(state.offset));
  return `/v1/programs/search?${params}`;
}

/** Whether any field but the free text holds a value (the filters stay unfolded then). */
export const anyFilterSet = (state: SearchState, fields: readonly FormField[]): boolean =>
  fields.some((f) => f.name !== 'q' && (state.values[f.name] ?? []).length > 0);
