import { Type, type Static } from 'typebox';
import { JSIC_CODE_PATTERN } from '@jp-support/vocab';
import { Nullable, Attribution } from './common.ts';
import { PROGRAM_SEARCH_PARAMETERS, savedParameters, type ProgramSearchParameter } from '../catalog/programs/parameters.ts';

export { Fields } from '../catalog/programs/parameters.ts';

export const ProgramMinimal = Type.Object(
  {
    unified_id: Type.String(),
    primary_name: Type.String(),
    tier: Type.String(),
    prefecture: Nullable(Type.String()),
    authority_name: Nullable(Type.String()),
    amount_max_man_yen: Nullable(Type.Number()),
    official_url: Nullable(Type.String()),
  },
  { $id: 'ProgramMinimal', additionalProperties: false },
);

const programProperties = {
  unified_id: Type.String(),
  primary_name: Type.String(),
  aliases: Type.Array(Type.String()),
  authority_level: Nullable(Type.String({ description: '`national`, `prefecture`, `municipality`, `financial`; null when unknown' })),
  authority_name: Nullable(Type.String()),
  prefecture: Nullable(Type.String({ description: 'null means nationwide or unlabelled' })),
  municipality: Nullable(Type.String()),
  program_kind: Nullable(Type.String()),
  official_url: Nullable(Type.String()),
  amount_max_man_yen: Nullable(Type.Number({ description: 'upper grant amount, unit 10,000 yen' })),
  amount_min_man_yen: Nullable(Type.Number()),
  subsidy_rate: Nullable(Type.Number()),
  trust_level: Type.String({ description: '`verified`, `sourced`, `listed`, `unverified`' }),
  tier: Type.String({ description: '`S`, `A`, `B`, `C`, `X`' }),
  coverage_score: Type.Number(),
  gap_to_tier_s: Type.Array(Type.String()),
  a_to_j_coverage: Type.Record(Type.String(), Type.Boolean()),
  excluded: Type.Boolean(),
  exclusion_reason: Nullable(Type.String()),
  crop_categories: Type.Array(Type.String()),
  equipment_category: Nullable(Type.String()),
  target_types: Type.Array(Type.String()),
  funding_purpose: Type.Array(Type.String()),
  amount_band: Type.String(),
  application_window: Type.Object({ start: Nullable(Type.String()), end: Nullable(Type.String()) }),
};

export const Program = Type.Object(programProperties, { $id: 'Program', additionalProperties: false });

const SourceMention = Type.Object({
  url: Type.String(),
  fetched_at: Nullable(Type.String()),
  confidence: Type.Optional(Type.Number()),
});

const detailProperties = {
  ...programProperties,
  published_name: Type.String({
    description: 'The name as the source published it; `primary_name` is that name without page debris, status banners and site suffixes.',
  }),
  description: Nullable(
    Type.String({
      description:
        'What the programme is, in the words of a primary source (jGrants: its catch phrase and detail text, HTML removed, at most 2,000 characters); null when no primary source supplied one. Its source is `provenance.description`.',
    }),
  ),
  provenance: Type.Record(Type.String(), Type.Unknown(), {
    description:
      "Where each field's value comes from: the dataset's per-field source keys, plus `cleaned:<rules>` (primary_name cleaned at ingest) and `derived:official_url_domain` / `derived:name_place` (prefecture or municipality derived at ingest).",
  }),
  canonical_id: Nullable(
    Type.String({
      description:
        "One programme, one record: the unified_id of the record that stands for this record's programme in search, totals, facets, exports and the change feed; null when this record is that record. Its rules are in `provenance.canonical_id` (`derived:canonical:<rules>`).",
    }),
  ),
  also_listed_as: Type.Array(Type.Object({ unified_id: Type.String(), primary_name: Type.String() }, { additionalProperties: false }), {
    description:
      "The programme's other records (rounds, area or expense-type splits, renamed predecessors, duplicates), best first; empty when there are none or when this record is not the programme's canonical record. Its rules are in `provenance.also_listed_as`.",
  }),
  enriched: Nullable(Type.Record(Type.String(), Nullable(Type.Record(Type.String(), Type.Unknown())))),
  source_mentions: Nullable(Type.Array(SourceMention)),
  source_url: Nullable(Type.String()),
  source_fetched_at: Nullable(Type.String()),
  source_checksum: Nullable(Type.String()),
};

export const ProgramDetail = Type.Object(detailProperties, { $id: 'ProgramDetail', additionalProperties: false });

/** Score parts of a search row (explain=true). */
export const ScoreParts = Type.Object(
  {
    total: Type.Number({ description: 'The relevance score rows are ordered by: the sum of the parts.' }),
    text: Type.Number({
      description: "BM25 of the terms over name, aliases, reading, authority, kind text and a primary source's description, weighted by field and rarity.",
    }),
    coverage: Type.Number({ description: 'Negative for each term the row lacks: such rows are added only when fewer than ten programmes contain every term.' }),
    name: Type.Number({ description: "Exact name, name prefix, the query's words together in the name." }),
    quality: Type.Number({ description: 'Tier, and the kind of page (programmes ahead of law provisions, documents, index pages, announcements).' }),
    place: Type.Number({ description: 'A prefecture named in q: that prefecture first, nationwide next, other prefectures last.' }),
    purpose: Type.Number({ description: 'A funding purpose named in q.' }),
    kind: Type.Number({ description: 'A kind of support named in q (補助金 -> subsidy, 融資 -> loan).' }),
    fit: Type.Number({
      description:
        "The need (q read into purposes, audiences and industries; a match profile's size and stage too) against the programme's funding_purpose, target_types and jsic_majors: up for a fit, down for another industry or applicant; 0 where the programme states nothing.",
    }),
    recency: Type.Number({ description: 'Newer fiscal years first where the record names one.' }),
  },
  { $id: 'ScoreParts', additionalProperties: false },
);

/** What q was read as (explain=true), on each row beside its score. */
export const SearchNeed = Type.Object(
  {
    terms: Type.Array(Type.String(), {
      description: 'Terms every row holds (any spelling of each): the words of q, or the need a sentence was read into (雇いたい -> 雇入れ助成).',
    }),
    ranking_terms: Type.Array(Type.String(), { description: "A sentence's incidental words: they rank a row that holds them but do not filter." }),
    generic: Type.Array(Type.String(), { description: 'Generic words (補助金, support): a boost when the name holds them.' }),
    prefectures: Type.Array(Type.String(), { description: 'Prefectures named in q (ranking).' }),
    municipalities: Type.Array(Type.Object({ prefecture: Type.String(), municipality: Type.String() }, { additionalProperties: false }), {
      description:
        "Municipalities named in q (浜松市) with their prefecture (ranking): their own and their prefecture's programmes first, another municipality's last.",
    }),
    applicable_in: Nullable(Type.Object({ prefecture: Type.String(), municipality: Nullable(Type.String()) }, { additionalProperties: false })),
    purposes: Type.Array(Type.String(), { description: "The purposes q's words name, as funding_purpose terms (設備更新 -> 設備投資)." }),
    kinds: Type.Array(Type.String(), { description: 'program_kind values the words point to.' }),
    audiences: Type.Array(Type.String(), {
      description:
        'Who q says is asking, as target_types terms (社員, 店, company: the business audiences; NPO, 農家: theirs): the fit part prefers programmes for them.',
    }),
  },
  { $id: 'SearchNeed', additionalProperties: false },
);

const hitProperties = {
  score: Type.Optional(ScoreParts),
  need: Type.Optional(SearchNeed),
};

/** Search rows: the shapes plus `score` (explain=true). */
export const ProgramHitMinimal = Type.Object(
  { ...ProgramMinimal.properties, score: Type.Optional(ScoreParts), need: Type.Optional(SearchNeed) },
  { $id: 'ProgramHitMinimal', additionalProperties: false },
);
export const ProgramHit = Type.Object({ ...programProperties, ...hitProperties }, { $id: 'ProgramHit', additionalProperties: false });
export const ProgramHitFull = Type.Object({ ...detailProperties, ...hitProperties }, { $id: 'ProgramHitFull', additionalProperties: false });

/**
 * A schema built from a parameter table, once per table: routes of one app
 * share the object (Ajv and the OpenAPI export know a schema by its $id, and
 * refuse a second object under the same one).
 */
export function perTable<T>(build: (table: readonly ProgramSearchParameter[]) => T): (table?: readonly ProgramSearchParameter[]) => T {
  const built = new WeakMap<readonly ProgramSearchParameter[], T>();
  return (table = PROGRAM_SEARCH_PARAMETERS) => {
    let schema = built.get(table);
    if (schema === undefined) {
      schema = build(table);
      built.set(table, schema);
    }
    return schema;
  };
}

/** The query string of GET /v1/programs/search: one property per entry of the parameter table, in its order. */
export const searchQuerySchema = perTable((table) =>
  Type.Object(Object.fromEntries(table.map((p) => [p.name, Type.Optional(p.schema)])), { additionalProperties: false }),
);

/** The text, filters and order of a search (not paging, shape or export) as a JSON object: what a saved search keeps. */
export const savedSearchQuerySchema = perTable((table) =>
  Type.Object(Object.fromEntries(savedParameters(table).map((p) => [p.name, Type.Optional(p.schema)])), {
    $id: 'SavedSearchQuery',
    additionalProperties: false,
    description: 'The same parameters as GET /v1/programs/search (not limit, offset, fields).',
  }),
);

export const SearchQuery = searchQuerySchema();
export type SearchQueryT = Static<typeof SearchQuery>;

export const SearchResponse = Type.Object(
  {
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    results: Type.Array(Type.Union([ProgramHitFull, ProgramHit, ProgramHitMinimal])),
    attribution: Attribution,
    next_cursor: Nullable(Type.String({ description: 'Cursor of the next page (pass as `cursor`), null on the last page.' })),
    facets: Type.Optional(
      Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer()), {
        description: 'With `facets`: per facet, value -> number of programmes (prefecture `_none`: no prefecture).',
      }),
    ),
  },
  {
    $id: 'SearchResponse',
    description: "`total`: programmes matching (one programme, one record: records merged into another programme's are not counted), exact.",
  },
);

export const BatchRequest = Type.Object(
  { unified_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { description: '1 to 50 ids; duplicates removed.' }) },
  { $id: 'BatchGetProgramsRequest', additionalProperties: false },
);

export const BatchResponse = Type.Object(
  { results: Type.Array(ProgramDetail), not_found: Type.Array(Type.String()), attribution: Attribution },
  { $id: 'BatchGetProgramsResponse' },
);

/** POST /v1/programs/match: a company profile, every field optional. */
export const MatchRequest = Type.Object(
  {
    prefecture: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Where the company is: a prefecture (大阪府, 大阪, Osaka).' })),
    municipality: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'Its municipality (大阪市); must lie in `prefecture` when both are given.' }),
    ),
    industry: Type.Optional(
      Type.String({
        pattern: JSIC_CODE_PATTERN,
        description:
          'JSIC industry: a major letter (E manufacturing, N personal services …) or a division, group or industry code (the first two digits decide).',
      }),
    ),
    employees: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Headcount (the size: up to 20 small, 300 SME, 2,000 mid-size).' })),
    capital_man_yen: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'Paid-in capital, 10,000 yen.' })),
    founded_year: Type.Optional(
      Type.Integer({ minimum: 1800, maximum: 2200, description: 'Year founded; a year after next is refused (give stage=planning).' }),
    ),
    stage: Type.Optional(
      Type.Union([Type.Literal('planning'), Type.Literal('founding'), Type.Literal('established')], {
        description: '`planning` (not founded yet), `founding` (founded this year or last), `established`; read from founded_year when absent.',
      }),
    ),
    purposes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 10,
        description:
          'What the money is for, in words of the vocabulary (創業, 設備投資, 省エネ, 雇用, 事業承継 …; English too: startup, equipment); other words are searched as they are.',
      }),
    ),
    need: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The need in the owner’s words (古い機械を入れ替えたい, hire staff).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Programmes to return (1 to 50, default 10).' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 0 })),
    explain: Type.Optional(Type.Boolean({ default: false, description: 'Add to each row the need it was read as (`need`) and its score parts (`score`).' })),
  },
  { $id: 'MatchRequest', additionalProperties: false },
);

const MatchNote = Type.Object(
  {
    kind: Type.String({ description: '`place`, `purpose`, `audience`, `industry`, `size`, `stage`, `words`, `window`, `amount`' }),
    detail: Type.String(),
  },
  { additionalProperties: false },
);

/** What a match profile was read as (the need the ranking compares programmes with). */
export const MatchReadAs = Type.Object(
  {
    place: Nullable(Type.Object({ prefecture: Type.String(), municipality: Nullable(Type.String()) }, { additionalProperties: false })),
    industry: Nullable(Type.String({ description: 'JSIC major letter' })),
    size: Nullable(Type.String({ description: '`sole`, `small`, `sme`, `midsize`, `large` (from employees)' })),
    stage: Nullable(Type.String()),
    purposes: Type.Array(Type.String(), { description: 'funding_purpose terms' }),
    audiences: Type.Array(Type.String(), { description: 'target_types terms' }),
    industries: Type.Array(Type.String(), { description: 'JSIC major letters' }),
    terms: Type.Array(Type.String(), { description: 'The words searched (need, purposes, stage): those that must match first, then those that only rank.' }),
  },
  { $id: 'MatchReadAs', additionalProperties: false },
);

export const ProgramMatch = Type.Object(
  {
    ...programProperties,
    reasons: Type.Array(MatchNote, { description: 'Why it fits: matched place, purpose, audience, industry, size, stage, words.' }),
    unknowns: Type.Array(MatchNote, { description: 'What is unknown or to check: size limits, other industries, a closed or unpublished window, amount.' }),
    need: Type.Optional(MatchReadAs),
    score: Type.Optional(Nullable(ScoreParts)),
  },
  { $id: 'ProgramMatch', additionalProperties: false },
);

export const MatchResponse = Type.Object(
  {
    total: Type.Integer({ description: 'Programmes that apply (place filter) and match the words, one row per programme.' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    results: Type.Array(ProgramMatch),
    read_as: MatchReadAs,
    attribution: Attribution,
  },
  { $id: 'MatchResponse' },
);
