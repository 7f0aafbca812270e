// The parameters of programme search, as one table (docs/program-search.md).
// Every consumer is produced from it, so a new filter is one entry here:
// - the REST query schema of GET /v1/programs/search (schemas/programs.ts),
//   and with it the OpenAPI document and the client's generated types;
// - the query builder (query.ts: each value read once, in this order) and the
//   engine's row test (`accepts`, catalog/search/engine.ts);
// - saved searches and deadline calendars (the `text`, `filter` and `order`
//   parameters: SAVED_PARAMETERS), exports (the same query plus `export`);
// - the MCP tools search_programs and create_saved_search (the public part,
//   written into packages/mcp/src/generated/ by `npm run gen:tool-specs`);
// - the portal's explore form (the entries with a `form`).
import { isPlace, normalizeAudience, normalizePrefecture, normalizePurpose, resolvePlace, type Place } from '@jp-support/vocab';
import { Type, type TSchema } from 'typebox';
import { ExportFormat, Limit, MaxRows, Offset } from '../record-sets/params.ts';
import type { SortOrder } from '../search/engine.ts';
import type { ProgramColumns } from '../search/index.ts';
import { FACET_NAMES } from '../search/facets.ts';
import { appliesIn } from '../search/reach.ts';

/**
 * What a parameter is for, which decides who takes it: `text`, `filter` and
 * `order` describe the set of programmes (kept by a saved search); `page` and
 * `shape` a page of it; `export` a file of it.
 */
export type ParameterKind = 'text' | 'filter' | 'order' | 'page' | 'shape' | 'export';

/** How the portal's explore form edits a parameter. */
export type FormControl =
  | { control: 'search' }
  | { control: 'text' }
  | { control: 'checkboxes'; options: readonly string[] }
  | { control: 'select'; options: 'prefectures' | readonly string[] }
  | { control: 'number' };

/** A parameter's value after reading: a filter's `accepts` gets it. */
export type ReadValue = string | number | boolean | readonly string[] | Place;

export interface ProgramSearchParameter {
  /** The REST name (query string), the key a saved search stores, and the tool's input name unless `tool.name` says otherwise. */
  readonly name: string;
  readonly kind: ParameterKind;
  /** The REST schema of the value, with its description (validation, OpenAPI). */
  readonly schema: TSchema;
  /** What it does to the answer (the SQL or ranking effect), for docs/program-search.md. */
  readonly effect: string;
  /** A filter that applies when the parameter is absent (include_excluded: false). */
  readonly absent?: ReadValue;
  /** The value as the engine takes it (lenient spellings to the canonical one); throws ProgramQueryError for a value refused. */
  readonly read?: (value: never) => ReadValue;
  /** Filters: whether a programme passes, given the read value. */
  readonly accepts?: (row: ProgramColumns, value: never) => boolean;
  /** The MCP tools' view (search_programs, create_saved_search). */
  readonly tool: ToolView;
  /** The explore page's control for it, when the form has one. */
  readonly form?: FormControl;
}

/**
 * How the MCP tools present a parameter: its input name when it differs (the
 * reference tool surface names amounts in 万円 explicitly), the description an
 * agent reads, the values it may take where the REST type is looser (an
 * alias-tolerant string is an enum to an agent), a default of its own, and
 * whether the tools take it at all.
 */
export interface ToolView {
  readonly name?: string;
  readonly description?: string;
  readonly values?: readonly string[];
  readonly default?: string | number | boolean;
  /** A prefecture the tool normalises itself (aliases, with a warning for an unknown name). */
  readonly vocabulary?: 'prefecture';
  readonly hidden?: boolean;
}

/** A parameter value the search refuses (the caller answers 400 with the message). */
export class ProgramQueryError extends Error {}

export const TIERS = ['S', 'A', 'B', 'C', 'X'] as const;
export const SORTS = ['relevance', 'amount', 'deadline', 'name'] as const satisfies readonly SortOrder[];
export const AUTHORITY_LEVELS = ['national', 'prefecture', 'municipality', 'financial'] as const;

/** Japanese (and a few English) spellings accepted for authority_level. */
export const AUTHORITY_LEVEL_ALIASES: Record<string, string> = {
  national: 'national',
  prefecture: 'prefecture',
  municipality: 'municipality',
  financial: 'financial',
  国: 'national',
  都道府県: 'prefecture',
  市区町村: 'municipality',
  市町村: 'municipality',
  公庫: 'financial',
};

/** The canonical authority level for a value or alias, or null when unknown. */
export function normalizeAuthorityLevel(value: string): string | null {
  return AUTHORITY_LEVEL_ALIASES[value.trim().toLowerCase()] ?? AUTHORITY_LEVEL_ALIASES[value.trim()] ?? null;
}

/** The response shape of a programme (search rows and the detail). */
export const Fields = Type.Union([Type.Literal('minimal'), Type.Literal('default'), Type.Literal('full')], {
  default: 'default',
  description: 'Response shape: `minimal` (7 keys), `default` (all Program fields), `full` (plus enrichment and lineage).',
});

const Tier = Type.Union(
  TIERS.map((t) => Type.Literal(t)),
  {},
);

/** A parameter entry, typed by its value (the table below holds them untyped). */
function parameter<V, R extends ReadValue = V extends ReadValue ? V : never>(p: {
  name: string;
  kind: ParameterKind;
  schema: TSchema;
  effect: string;
  absent?: R;
  read?: (value: V) => R;
  accepts?: (row: ProgramColumns, value: R) => boolean;
  tool: ToolView;
  form?: FormControl;
}): ProgramSearchParameter {
  return p as unknown as ProgramSearchParameter;
}

const anyOf = (values: readonly string[], wanted: readonly string[]): boolean => values.some((v) => wanted.includes(v));

/** The table, in the order of the REST schema's properties. */
export const PROGRAM_SEARCH_PARAMETERS: readonly ProgramSearchParameter[] = [
  parameter<string>({
    name: 'q',
    kind: 'text',
    schema: Type.String({
      maxLength: 500,
      description:
        'Free text. Normalised (width, case, katakana/hiragana), Japanese segmented into words, synonyms and abbreviations expanded; every term must match (terms of 3+ characters through the trigram index, shorter ones by substring; generic words such as 補助金 and a named prefecture rank but do not filter). At most 12 terms.',
    }),
    effect:
      'Matches every term (any spelling of each) in name, aliases, reading, authority, kind text and description; ranks by BM25F plus the signals of rank.ts.',
    form: { control: 'search' },
    tool: { description: 'Keywords (Japanese or English)' },
  }),
  parameter<string[]>({
    name: 'tier',
    kind: 'filter',
    schema: Type.Array(Tier, { maxItems: 5, description: 'Repeatable; values are OR-ed.' }),
    effect: 'tier IN (values).',
    accepts: (r, tiers) => tiers.length === 0 || tiers.includes(r.tier),
    form: { control: 'checkboxes', options: TIERS },
    tool: { description: 'Quality tiers (S best; X only with include_excluded)' },
  }),
  parameter<string, string>({
    name: 'prefecture',
    kind: 'filter',
    schema: Type.String({
      maxLength: 20,
      description: 'Prefecture, e.g. 東京都; a short or romaji form (東京, Tokyo, tokyo-to) is read as the prefecture it names.',
    }),
    effect: 'prefecture = value (exact; 東京, Tokyo and tokyo-to read as 東京都; an unknown name matches nothing).',
    // Lenient: an unknown name stays as given (and matches nothing).
    read: (value) => normalizePrefecture(value) ?? value,
    accepts: (r, prefecture) => r.prefecture === prefecture,
    form: { control: 'select', options: 'prefectures' },
    tool: { description: 'Prefecture, e.g. 東京都', vocabulary: 'prefecture' },
  }),
  parameter<string, Place>({
    name: 'applicable_in',
    kind: 'filter',
    schema: Type.String({
      minLength: 1,
      maxLength: 40,
      description:
        'Where the applicant is: a prefecture (大阪府, 大阪, Osaka) or a municipality (大阪市, 東京都府中市). Returns the programmes of that place, of its prefecture and the nationwide ones, ranked together (unlike `prefecture`, which is exact). An unknown place is a 400.',
    }),
    effect:
      'Programmes that apply there: nationwide ones (no prefecture, not a local authority), those of the prefecture (for a municipality: of the prefecture as a whole or of that municipality); the place ranks as a signal (rank.ts).',
    read: (value) => {
      const place = resolvePlace(value);
      if (isPlace(place)) return place;
      if (place.problem === 'ambiguous')
        throw new ProgramQueryError(
          `applicable_in: ${value} is a municipality of ${place.prefectures.join(' and ')}; write it after its prefecture, e.g. ${place.prefectures[0]}${value}`,
        );
      throw new ProgramQueryError(
        `applicable_in: unknown place ${JSON.stringify(value.slice(0, 40))}; give a prefecture (大阪府, Osaka) or a municipality (大阪市, 東京都府中市)`,
      );
    },
    accepts: (r, place) => appliesIn(r, place),
    form: { control: 'select', options: 'prefectures' },
    tool: {
      description: "Where the applicant is (大阪府, 大阪市): its own, its prefecture's and nationwide programmes",
    },
  }),
  parameter<string, string>({
    name: 'authority_level',
    kind: 'filter',
    schema: Type.String({ maxLength: 20, description: '`national`, `prefecture`, `municipality`, `financial`; aliases 国, 都道府県, 市区町村, 公庫.' }),
    effect: 'authority_level = value (Japanese aliases normalised; an unknown value is a 400).',
    read: (value) => {
      const level = normalizeAuthorityLevel(value);
      if (!level)
        throw new ProgramQueryError('authority_level: must be one of national, prefecture, municipality, financial (or 国, 都道府県, 市区町村, 公庫)');
      return level;
    },
    accepts: (r, level) => r.authorityLevel === level,
    form: { control: 'select', options: AUTHORITY_LEVELS },
    tool: { description: 'Level of the issuing authority', values: AUTHORITY_LEVELS },
  }),
  parameter<string[]>({
    name: 'funding_purpose',
    kind: 'filter',
    schema: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Repeatable; values are OR-ed.' }),
    effect:
      'funding_purpose holds any of the values (purpose terms of the programme vocabulary; an English spelling or synonym reads as its term: startup -> 創業).',
    read: (values) => values.map((v) => normalizePurpose(v) ?? v),
    accepts: (r, purposes) => purposes.length === 0 || anyOf(r.fundingPurpose, purposes),
    tool: { description: 'Funding purposes (values: enum_values)' },
  }),
  parameter<string[]>({
    name: 'target_type',
    kind: 'filter',
    schema: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Repeatable; values are OR-ed.' }),
    effect:
      'target_types holds any of the values (audience terms of the programme vocabulary; an English spelling or synonym reads as its term: sme -> 中小企業).',
    read: (values) => values.map((v) => normalizeAudience(v) ?? v),
    accepts: (r, targets) => targets.length === 0 || anyOf(r.targetTypes, targets),
    tool: { description: 'Applicant types (values: enum_values)' },
  }),
  parameter<number>({
    name: 'amount_min',
    kind: 'filter',
    schema: Type.Number({ minimum: 0, maximum: 1e9, description: 'Lower bound of amount_max_man_yen (万円).' }),
    effect: 'amount_max_man_yen >= value (an unknown amount never passes, as in SQL).',
    accepts: (r, min) => r.amountMax !== null && r.amountMax >= min,
    tool: { name: 'amount_min_man_yen', description: 'Maximum amount at least this, 万円' },
    form: { control: 'number' },
  }),
  parameter<number>({
    name: 'amount_max',
    kind: 'filter',
    schema: Type.Number({ minimum: 0, maximum: 1e9, description: 'Upper bound of amount_max_man_yen (万円).' }),
    effect: 'amount_max_man_yen <= value (an unknown amount never passes, as in SQL).',
    accepts: (r, max) => r.amountMax !== null && r.amountMax <= max,
    tool: { name: 'amount_max_man_yen', description: 'Maximum amount at most this, 万円' },
    form: { control: 'number' },
  }),
  parameter<boolean>({
    name: 'include_excluded',
    kind: 'filter',
    schema: Type.Boolean({ default: false, description: 'Also return tier X (excluded) programs.' }),
    effect: 'Without it (or false), tier X (excluded) programmes are left out.',
    absent: false,
    accepts: (r, include) => include || !r.excluded,
    tool: { description: 'Include tier X (quarantined)' },
  }),
  parameter({
    name: 'limit',
    kind: 'page',
    schema: Limit(100, 20),
    effect: 'Rows on the page.',
    tool: { description: 'Maximum programs to return, 1 to 100 (default 20); out-of-range values are clamped' },
  }),
  parameter({
    name: 'offset',
    kind: 'page',
    schema: Offset,
    effect: 'Rows skipped before the page.',
    tool: { description: 'Rows to skip for paging (default 0)' },
  }),
  parameter({
    name: 'fields',
    kind: 'shape',
    schema: Fields,
    effect: "The rows' shape.",
    tool: {
      description: 'Row shape: minimal (7 keys), default (all fields), full',
      default: 'minimal',
    },
  }),
  parameter({
    name: 'sort',
    kind: 'order',
    schema: Type.Union(
      SORTS.map((v) => Type.Literal(v)),
      {
        description:
          '`relevance` (default: by score with q, else by tier then name), `amount` (largest amount_max_man_yen first), `deadline` (open application windows closing soonest first, then none, then closed), `name`.',
      },
    ),
    effect: 'The order; every order ends with the browse order (tier, primary_name), so it is total.',
    tool: { description: 'Order (default relevance)' },
  }),
  parameter({
    name: 'facets',
    kind: 'shape',
    schema: Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 6,
      description:
        'Facet counts over the whole result set: comma-separated or repeated names of tier, prefecture, authority_level, funding_purpose, target_type, program_kind.',
    }),
    effect: 'Counts of the whole result set by these fields (catalog/search/facets.ts).',
    tool: { description: 'Count all matches by these fields', values: FACET_NAMES },
  }),
  parameter({
    name: 'cursor',
    kind: 'page',
    schema: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Keyset paging: the `next_cursor` of the previous page of the same search (then offset must be 0).',
    }),
    effect: 'The page after the row the cursor names (keyset; the search must be the same).',
    tool: { description: 'next_cursor of the previous page' },
  }),
  parameter({
    name: 'explain',
    kind: 'shape',
    schema: Type.Boolean({ default: false, description: "Add each row's score parts (`score`)." }),
    effect: "Each row's score parts.",
    tool: { description: 'Add score parts' },
  }),
  parameter({ name: 'format', kind: 'export', schema: ExportFormat, effect: 'The JSON page, or every row as CSV or JSON Lines.', tool: { hidden: true } }),
  parameter({ name: 'max_rows', kind: 'export', schema: MaxRows, effect: 'Most rows of an export.', tool: { hidden: true } }),
];

/** What a saved search, a calendar and an export keep of a search: the set of programmes (text, filters, order). */
export const SAVED_KINDS: readonly ParameterKind[] = ['text', 'filter', 'order'];
export const savedParameters = (table: readonly ProgramSearchParameter[]): ProgramSearchParameter[] => table.filter((p) => SAVED_KINDS.includes(p.kind));
