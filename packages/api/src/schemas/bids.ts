// Bid (BidOut): the contract fixes its fields; additional properties are
// forbidden both in the dataset file (catalog/loaders/bids.ts) and in responses.
import { Type, type TSchema } from 'typebox';
import { Nullable, Attribution, Limit, Offset } from './common.ts';
import { HOUJIN_BANGOU_PATTERN } from '../catalog/houjin.ts';

const opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** ISO 8601 date or date-time (any offset). */
export const ISO_DATE_OR_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$';
/** ISO 8601 date-time in UTC (`Z` or `+00:00`). */
export const ISO_UTC_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|\\+00:?00)$';

export const BID_KINDS = ['open', 'selective', 'negotiated', 'kobo_subsidy'] as const;
export const BidKind = Type.Union(BID_KINDS.map((k) => Type.Literal(k)));

export const bidProperties = {
  unified_id: Type.String({ pattern: '^BID-[0-9a-f]{10}$', description: '`BID-<10 lowercase hex>`' }),
  bid_title: Type.String(),
  bid_kind: BidKind,
  procuring_entity: Type.String(),
  source_url: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  fetched_at: Type.String({ pattern: ISO_UTC_TIME, description: 'ISO 8601 UTC' }),
  updated_at: Type.String({ pattern: ISO_UTC_TIME, description: 'ISO 8601 UTC' }),
  announcement_date: opt(Type.String({ pattern: ISO_DATE_OR_TIME })),
  bid_deadline: opt(Type.String({ pattern: ISO_DATE_OR_TIME })),
  question_deadline: opt(Type.String({ pattern: ISO_DATE_OR_TIME })),
  decision_date: opt(Type.String({ pattern: ISO_DATE_OR_TIME })),
  bid_description: opt(Type.String()),
  classification_code: opt(Type.String()),
  eligibility_conditions: opt(Type.String()),
  ministry: opt(Type.String()),
  prefecture: opt(Type.String()),
  procuring_houjin_bangou: opt(Type.String({ pattern: HOUJIN_BANGOU_PATTERN, description: '13-digit corporate number' })),
  program_id_hint: opt(Type.String({ description: 'a programs unified_id' })),
  source_checksum: opt(Type.String({ description: 'SHA-256 of the raw fetched body' })),
  source_excerpt: opt(Type.String()),
  winner_houjin_bangou: opt(Type.String({ pattern: HOUJIN_BANGOU_PATTERN, description: '13-digit corporate number' })),
  winner_name: opt(Type.String()),
  awarded_amount_yen: opt(Type.Integer()),
  budget_ceiling_yen: opt(Type.Integer()),
  participant_count: opt(Type.Integer({ minimum: 0 })),
};

export const BID_FIELDS = Object.keys(bidProperties) as (keyof typeof bidProperties)[];

/** BidOut: the record as stored and as served. */
export const Bid = Type.Object(bidProperties, { $id: 'Bid', additionalProperties: false });

export const BidsSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500, description: 'Free text over title, description, procuring entity and winner.' })),
  bid_kind: Type.Optional(BidKind),
  procuring_houjin_bangou: Type.Optional(Type.String({ pattern: HOUJIN_BANGOU_PATTERN })),
  winner_houjin_bangou: Type.Optional(Type.String({ pattern: HOUJIN_BANGOU_PATTERN })),
  program_id_hint: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  prefecture: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
  min_amount_yen: Type.Optional(Type.Integer({ minimum: 0, description: 'awarded_amount_yen, else budget_ceiling_yen, at least this' })),
  max_amount_yen: Type.Optional(Type.Integer({ minimum: 0, description: 'awarded_amount_yen, else budget_ceiling_yen, at most this' })),
  deadline_after: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'bid_deadline on or after this date (YYYY-MM-DD)' })),
  limit: Type.Optional(Limit()),
  offset: Type.Optional(Offset),
}, { additionalProperties: false });

/** BidsSearchResponse: total, limit, offset, results of Bid (plus the attribution block). */
export const BidsSearchResponse = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  results: Type.Array(Bid),
  attribution: Attribution,
}, { $id: 'BidsSearchResponse' });
