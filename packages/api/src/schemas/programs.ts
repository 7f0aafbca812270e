import { Type, type Static } from 'typebox';
import { Nullable, Attribution, Limit, Offset } from './common.ts';

export const Tier = Type.Union([Type.Literal('S'), Type.Literal('A'), Type.Literal('B'), Type.Literal('C'), Type.Literal('X')]);
export const Fields = Type.Union([Type.Literal('minimal'), Type.Literal('default'), Type.Literal('full')], {
  default: 'default',
  description: 'Response shape: `minimal` (7 keys), `default` (all Program fields), `full` (plus enrichment and lineage).',
});

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

export const ProgramDetail = Type.Object(
  {
    ...programProperties,
    enriched: Nullable(Type.Record(Type.String(), Nullable(Type.Record(Type.String(), Type.Unknown())))),
    source_mentions: Nullable(Type.Array(SourceMention)),
    source_url: Nullable(Type.String()),
    source_fetched_at: Nullable(Type.String()),
    source_checksum: Nullable(Type.String()),
  },
  { $id: 'ProgramDetail', additionalProperties: false },
);

export const SearchQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 500, description: 'Free text; terms of 3+ characters use the trigram index, shorter ones a substring match.' })),
    tier: Type.Optional(Type.Array(Tier, { maxItems: 5, description: 'Repeatable; values are OR-ed.' })),
    prefecture: Type.Optional(Type.String({ maxLength: 20, description: 'Exact prefecture name, e.g. 東京都.' })),
    authority_level: Type.Optional(Type.String({ maxLength: 20, description: '`national`, `prefecture`, `municipality`, `financial`; aliases 国, 都道府県, 市区町村, 公庫.' })),
    funding_purpose: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Repeatable; values are OR-ed.' })),
    target_type: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Repeatable; values are OR-ed.' })),
    amount_min: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'Lower bound of amount_max_man_yen (万円).' })),
    amount_max: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'Upper bound of amount_max_man_yen (万円).' })),
    include_excluded: Type.Optional(Type.Boolean({ default: false, description: 'Also return tier X (excluded) programs.' })),
    limit: Type.Optional(Limit(100, 20)),
    offset: Type.Optional(Offset),
    fields: Type.Optional(Fields),
  },
  { additionalProperties: false },
);
export type SearchQueryT = Static<typeof SearchQuery>;

export const SearchResponse = Type.Object(
  {
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    results: Type.Array(Type.Union([ProgramDetail, Program, ProgramMinimal])),
    attribution: Attribution,
  },
  { $id: 'SearchResponse' },
);

export const BatchRequest = Type.Object(
  { unified_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { description: '1 to 50 ids; duplicates removed.' }) },
  { $id: 'BatchGetProgramsRequest', additionalProperties: false },
);

export const BatchResponse = Type.Object(
  { results: Type.Array(ProgramDetail), not_found: Type.Array(Type.String()), attribution: Attribution },
  { $id: 'BatchGetProgramsResponse' },
);
