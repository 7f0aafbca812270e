// The Bid record (BidOut): the contract fixes its fields, and a dataset line
// of bids.jsonl is exactly the object the API serves (additional properties
// forbidden on both sides). Defined here, beside the loader that validates
// it; schemas/bids.ts builds the API schemas on it.
import { Type, type TSchema } from 'typebox';
import { HOUJIN_BANGOU_PATTERN } from './houjin.ts';

const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

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
