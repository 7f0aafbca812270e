// Public bids (BidOut). The bundled dataset has none; an operator may drop a
// `bids.jsonl` (or .gz) into the dataset directory. Each line must be a BidOut
// exactly (additional properties forbidden, `BID-<10 hex>`), corporate
// numbers must pass the 法人番号 check digit and dates must be real calendar
// dates. Rows are served exactly as BidOut: the row schema serialises them,
// so a column that is not in BidOut can never reach a client.
import { Type, type TSchema } from 'typebox';
import { defineRecordSet, type ColumnKind } from './spec.ts';
import { DATE_PATTERN, Literals, Nullable, isRealDate } from './params.ts';
import { HOUJIN_BANGOU_PATTERN, isValidHoujinBangou } from '../houjin.ts';

const opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** ISO 8601 date or date-time (any offset). */
export const ISO_DATE_OR_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$';
/** ISO 8601 date-time in UTC (`Z` or `+00:00`). */
export const ISO_UTC_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|\\+00:?00)$';

export const BID_KINDS = ['open', 'selective', 'negotiated', 'kobo_subsidy'] as const;
const BidKind = Literals(BID_KINDS);
const HoujinField = opt(Type.String({ pattern: HOUJIN_BANGOU_PATTERN, description: '13-digit corporate number' }));

const bidProperties = {
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
  procuring_houjin_bangou: HoujinField,
  program_id_hint: opt(Type.String({ description: 'a programs unified_id' })),
  source_checksum: opt(Type.String({ description: 'SHA-256 of the raw fetched body' })),
  source_excerpt: opt(Type.String()),
  winner_houjin_bangou: HoujinField,
  winner_name: opt(Type.String()),
  awarded_amount_yen: opt(Type.Integer()),
  budget_ceiling_yen: opt(Type.Integer()),
  participant_count: opt(Type.Integer({ minimum: 0 })),
};

/** BidOut: the record as stored and as served. */
export const Bid = Type.Object(bidProperties, { $id: 'Bid', additionalProperties: false });

const KINDS: Record<string, ColumnKind> = {
  confidence: 'real',
  awarded_amount_yen: 'int',
  budget_ceiling_yen: 'int',
  participant_count: 'int',
};
const DATE_FIELDS = ['fetched_at', 'updated_at', 'announcement_date', 'bid_deadline', 'question_deadline', 'decision_date'];
const AMOUNT = 'coalesce(r.awarded_amount_yen, r.budget_ceiling_yen)';
const Houjin13 = Type.String({ pattern: HOUJIN_BANGOU_PATTERN });

export default defineRecordSet({
  name: 'bids',
  label: 'Bid',
  table: 'bids',
  file: 'bids',
  idField: 'unified_id',
  schema: Bid,
  columns: Object.fromEntries(Object.keys(bidProperties).map((f) => [f, KINDS[f] ?? 'text'])),
  check(r) {
    for (const field of ['procuring_houjin_bangou', 'winner_houjin_bangou']) {
      const v = r[field];
      if (typeof v === 'string' && !isValidHoujinBangou(v)) return `field ${field}: check digit does not match (${v})`;
    }
    for (const field of DATE_FIELDS) {
      const v = r[field];
      if (typeof v === 'string' && !isRealDate(v)) return `field ${field}: not a calendar date (${v})`;
    }
    return null;
  },
  unique: ['unified_id'],
  indexes: ['bid_kind', 'procuring_houjin_bangou', 'winner_houjin_bangou', 'program_id_hint', 'bid_deadline'],
  searchable: {
    bid_title: { weight: 10, short: true },
    other: { weight: 1, from: ['bid_description', 'procuring_entity', 'winner_name', 'ministry', 'classification_code'], short: true },
  },

  row: { $id: 'Bid', exact: Bid },
  search: {
    operationId: 'searchBids',
    summary: 'Search public bids by free text, kind, corporate numbers, program hint, amount and deadline',
    responseId: 'BidsSearchResponse',
    q: Type.String({ maxLength: 500, description: 'Free text over title, description, procuring entity and winner.' }),
    filters: [
      { name: 'bid_kind', type: BidKind, sql: 'r.bid_kind = ?' },
      { name: 'procuring_houjin_bangou', type: Houjin13, sql: 'r.procuring_houjin_bangou = ?' },
      { name: 'winner_houjin_bangou', type: Houjin13, sql: 'r.winner_houjin_bangou = ?' },
      { name: 'program_id_hint', type: Type.String({ minLength: 1, maxLength: 100 }), sql: 'r.program_id_hint = ?' },
      { name: 'prefecture', type: Type.String({ minLength: 1, maxLength: 20 }), sql: 'r.prefecture = ?' },
      {
        name: 'min_amount_yen',
        type: Type.Integer({ minimum: 0, description: 'awarded_amount_yen, else budget_ceiling_yen, at least this' }),
        sql: `${AMOUNT} >= ?`,
      },
      {
        name: 'max_amount_yen',
        type: Type.Integer({ minimum: 0, description: 'awarded_amount_yen, else budget_ceiling_yen, at most this' }),
        sql: `${AMOUNT} <= ?`,
      },
      {
        name: 'deadline_after',
        type: Type.String({ pattern: DATE_PATTERN, description: 'bid_deadline on or after this date (YYYY-MM-DD)' }),
        sql: 'substr(r.bid_deadline, 1, 10) >= ?',
      },
    ],
    ranges: [['min_amount_yen', 'max_amount_yen']],
    order: 'r.announcement_date IS NULL, r.announcement_date DESC, r.unified_id',
  },
  detail: {
    operationId: 'getBid',
    summary: 'One bid by unified_id (BID-…)',
    param: { name: 'unified_id', maxLength: 100 },
    keys: ['unified_id'],
  },
  tools: {
    search: {
      name: 'search_bids',
      title: 'Search public bids',
      description:
        'Public procurement notices and results by keywords, kind, procuring or winning corporate number, amount and deadline. Use for tenders a company could bid on or has won; answers no_data when no bids are held.',
      q: 'bid titles and descriptions',
      noun: 'bids',
      params: {
        bid_kind: { filter: 'bid_kind', description: 'Procurement kind' },
        procuring_houjin_bangou: { filter: 'procuring_houjin_bangou', description: 'Procuring body corporate number' },
        winner_houjin_bangou: { filter: 'winner_houjin_bangou', description: 'Corporate number of the winner (13 digits)' },
        program_id_hint: { filter: 'program_id_hint', description: 'Program unified_id the bid relates to' },
        min_amount_yen: { filter: 'min_amount_yen', description: 'Lowest amount, yen' },
        max_amount_yen: { filter: 'max_amount_yen', description: 'Highest amount, yen' },
        deadline_after: { filter: 'deadline_after', description: 'Deadline on or after' },
      },
    },
    get: {
      name: 'get_bid',
      title: 'Get one bid',
      description: 'One procurement record by its BID- id.',
      id: { name: 'unified_id', description: 'Bid id, BID- followed by 10 hex digits', pattern: '^BID-[0-9a-f]{10}$', example: 'BID-0123456789' },
    },
  },
});
