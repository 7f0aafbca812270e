// The explore page's query: read from and written to the page URL (so a
// search can be shared), and turned into the API call. Pure functions, used
// by the page script and by the server when it renders the form.
import type { LabelKey } from './labels.ts';

export const TIERS = ['S', 'A', 'B', 'C', 'X'] as const;
export const AUTHORITY_LEVELS: readonly (readonly [value: string, label: LabelKey])[] = [
  ['national', 'authNational'],
  ['prefecture', 'authPrefecture'],
  ['municipality', 'authMunicipality'],
  ['financial', 'authFinancial'],
];
export const PAGE_SIZE = 20;

export interface SearchState {
  q: string;
  tier: string[];
  prefecture: string;
  authority_level: string;
  amount_min: string;
  amount_max: string;
  offset: number;
  /** The programme whose detail is open. */
  id: string;
  /** The selected programmes (checked for exclusions). */
  sel: string[];
}

/** The structured filters beside the free text. */
export const FILTER_FIELDS = ['prefecture', 'authority_level', 'amount_min', 'amount_max'] as const;
/** The text fields that go to the search call as they are. */
const QUERY_FIELDS = ['q', ...FILTER_FIELDS] as const;
const UNIFIED_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const AMOUNT = /^\d+(\.\d+)?$/;

/** The state a page URL's query string describes; anything malformed is dropped. */
export function stateFromParams(params: URLSearchParams): SearchState {
  const text = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  const offset = Number(params.get('offset') ?? '0');
  return {
    q: text('q'),
    tier: params.getAll('tier').filter((t) => (TIERS as readonly string[]).includes(t)),
    prefecture: text('prefecture'),
    authority_level: AUTHORITY_LEVELS.some(([v]) => v === text('authority_level')) ? text('authority_level') : '',
    amount_min: AMOUNT.test(text('amount_min')) ? text('amount_min') : '',
    amount_max: AMOUNT.test(text('amount_max')) ? text('amount_max') : '',
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
    id: UNIFIED_ID.test(text('id')) ? text('id') : '',
    sel: [...new Set((params.get('sel') ?? '').split(',').filter((s) => UNIFIED_ID.test(s)))].slice(0, 50),
  };
}

/** The page URL's query string for a state (empty fields left out). */
export function paramsFromState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of QUERY_FIELDS) if (state[name]) params.set(name, state[name]);
  for (const tier of state.tier) params.append('tier', tier);
  if (state.offset) params.set('offset', String(state.offset));
  if (state.id) params.set('id', state.id);
  if (state.sel.length) params.set('sel', state.sel.join(','));
  return params;
}

/** The search call for a state: one page of the default shape; tier X asks for the excluded rows too. */
export function searchPath(state: SearchState): string {
  const params = new URLSearchParams();
  for (const name of QUERY_FIELDS) if (state[name]) params.set(name, state[name]);
  for (const tier of state.tier) params.append('tier', tier);
  if (state.tier.includes('X')) params.set('include_excluded', 'true');
  params.set('limit', String(PAGE_SIZE));
  params.set('offset', String(state.offset));
  return `/v1/programs/search?${params}`;
}
