// The bids API: search query and response around the Bid record (BidOut,
// catalog/bid-record.ts: the contract fixes its fields; additional properties
// are forbidden both in the dataset file and in responses).
import { Type } from 'typebox';
import { Attribution, Limit, Offset } from './common.ts';
import { HOUJIN_BANGOU_PATTERN } from '../catalog/houjin.ts';
import { Bid, BidKind } from '../catalog/bid-record.ts';

export { Bid } from '../catalog/bid-record.ts';

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
