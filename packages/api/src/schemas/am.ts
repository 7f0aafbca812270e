// TypeBox schemas of /v1/am/*. Responses allow additional properties (the
// contract says so); rows are free-form objects.
import { Type, type TSchema } from 'typebox';
import { Nullable } from './common.ts';

const Row = Type.Object({}, { additionalProperties: true });
export const AmErrorSchema = Nullable(
  Type.Object(
    {
      code: Type.String({ description: 'invalid_enum, invalid_input, invalid_date, invalid_field, empty_input, seed_not_found, no_matching_records' }),
      message: Type.String(),
      hint: Type.Optional(Type.String()),
      retry_with: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: true, description: 'Set when the tool failed; then results are empty. Reported with status 200.' },
  ),
);

export const AmEnvelope = (extra: Record<string, TSchema> = {}, id?: string) =>
  Type.Object(
    {
      total: Type.Integer({ description: 'Candidate rows before paging.' }),
      limit: Type.Integer(),
      offset: Type.Integer(),
      results: Type.Array(Row),
      meta: Nullable(Type.Object({}, { additionalProperties: true })),
      error: AmErrorSchema,
      retrieval_note: Nullable(Type.String()),
      ...extra,
    },
    { additionalProperties: true, ...(id ? { $id: id } : {}) },
  );

export const AmLimit = (dflt: number, max = 100) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `Page size, 1 to ${max} (default ${dflt}). Out of range answers 400.` });
export const AmOffset = Type.Integer({ minimum: 0, maximum: 100_000, default: 0, description: 'Rows to skip (default 0).' });
export const Text = (description: string, maxLength = 200) => Type.String({ maxLength, description });
export const DateParam = (description: string) =>
  Type.String({ maxLength: 20, description: `${description} YYYY-MM-DD or \`today\`; an unreadable date answers 200 with error.code invalid_date.` });
export const ListParam = (description: string) =>
  Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })], {
    description: `${description} Comma-separated or repeated; an unknown value answers 200 with error.code invalid_enum.`,
  });

export const LoanResponse = Type.Object(
  {
    results: Type.Array(Row),
    total: Type.Integer({ default: 0 }),
    limit: Type.Integer({ default: 10 }),
    offset: Type.Integer({ default: 0 }),
    result_count: Type.Integer({ default: 0 }),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const TotalResults = Type.Object(
  { total: Type.Integer({ default: 0 }), results: Type.Array(Row), error: AmErrorSchema },
  { additionalProperties: true },
);

export const EnforcementResponse = Type.Object(
  {
    found: Type.Boolean({ default: false }),
    currently_excluded: Type.Boolean({ default: false }),
    active_exclusions: Type.Array(Row),
    all_count: Type.Integer({ default: 0 }),
    queried: Row,
    recent_history: Type.Array(Row),
    coverage: Type.Optional(
      Type.Object(
        {
          findings: Type.Integer(),
          with_houjin_bangou: Type.Integer({ description: 'Findings that name a corporate number: a number can only match these' }),
          action_date_from: Nullable(Type.String()),
          action_date_to: Nullable(Type.String()),
        },
        { description: 'What the check looked at: a company not found is not found in these findings only' },
      ),
    ),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const EnumResponse = Type.Object(
  {
    enum_name: Type.String(),
    description: Nullable(Type.String()),
    values: Type.Array(Type.String()),
    frequency_map: Type.Record(Type.String(), Type.Integer()),
    last_updated: Nullable(Type.String()),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const IntentResponse = Type.Object(
  {
    intent_id: Nullable(Type.String()),
    intent_name_ja: Nullable(Type.String()),
    confidence: Nullable(Type.Number()),
    all_scores: Type.Array(Row),
    sample_queries: Type.Array(Type.String()),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

const S = Nullable(Type.String());
export const LawArticleResponse = Type.Object(
  {
    found: Type.Boolean({ default: false }),
    article_id: S,
    article_number: S,
    article_number_sort: Nullable(Type.Integer()),
    effective_from: S,
    effective_until: S,
    last_amended: S,
    law: Nullable(Row),
    source_fetched_at: S,
    source_url: S,
    text_full: S,
    text_summary: S,
    title: S,
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const ReasonResponse = Type.Object(
  {
    answer_skeleton: Type.String({ description: 'Each claim line ends with [n]: n is the 1-based index into source_urls.' }),
    intent: S,
    intent_name_ja: S,
    persona_hint: S,
    confidence: Nullable(Type.Number()),
    db_bind_ok: Nullable(Type.Boolean()),
    db_bind_notes: Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()]),
    filters_extracted: Type.Object(
      { prefecture: Type.Unknown(), amount: Type.Unknown(), industry: Type.Unknown(), target: Type.Unknown() },
      { additionalProperties: true },
    ),
    missing_data: Type.Array(Type.String()),
    precompute_gaps: Type.Array(Type.String()),
    retry_with: Nullable(Row),
    source_urls: Type.Array(Type.String()),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const RelatedResponse = Type.Object(
  {
    seed_id: Type.String(),
    seed_kind: S,
    depth: Type.Integer({ default: 1 }),
    total_edges: Type.Integer({ default: 0 }),
    nodes: Type.Array(Row),
    relations: Type.Array(Row),
    hint: S,
    retry_with: Nullable(Row),
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);

export const ValidateRequest = Type.Object(
  {
    applicant_data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'Free-form intake data, e.g. company_name, houjin_bangou, prefecture, municipality, employee_count, capital_yen, founded_date, industry_jsic, target_type, requested_amount_man_yen, application_date.',
      },
    ),
    entity_id: Type.Optional(
      Nullable(
        Type.String({ maxLength: 100, description: 'Adds the rules pinned to this entity (program, certification, tax measure); part of the cache key.' }),
      ),
    ),
    scope: Type.Optional(
      Type.String({ maxLength: 20, default: 'intake', description: '`intake` (the 6 generic predicates, default), `entity` (only the entity rules), `all`.' }),
    ),
  },
  { $id: 'AmValidateRequest', additionalProperties: false },
);

export const ValidateResponseSchema = Type.Object(
  {
    applicant_hash: S,
    entity_id: S,
    scope: Type.String({ default: 'intake' }),
    total: Type.Integer({ default: 0 }),
    results: Type.Array(Row),
    summary: Row,
    error: AmErrorSchema,
  },
  { additionalProperties: true },
);
