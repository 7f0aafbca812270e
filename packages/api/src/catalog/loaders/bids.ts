// Public bids. The bundled dataset has none; an operator may drop a
// `bids.jsonl` (or .gz) into the dataset directory. Each line must be a BidOut
// exactly (catalog/bid-record.ts: additional properties forbidden, `BID-<10 hex>`),
// corporate numbers must pass the 法人番号 check digit, and dates must be real
// calendar dates.
import { typedRecordsLoader, type ColumnKind } from './typed-records.ts';
import { Bid, BID_FIELDS } from '../bid-record.ts';
import { isValidHoujinBangou } from '../houjin.ts';

const KINDS: Record<string, ColumnKind> = {
  confidence: 'real', awarded_amount_yen: 'int', budget_ceiling_yen: 'int', participant_count: 'int',
};

const DATE_FIELDS = ['fetched_at', 'updated_at', 'announcement_date', 'bid_deadline', 'question_deadline', 'decision_date'];

/** True when the YYYY-MM-DD part names a real calendar day (the pattern already checked the form). */
export function isRealDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const bidsLoader = typedRecordsLoader({
  table: 'bids',
  file: 'bids',
  idField: 'unified_id',
  schema: Bid,
  columns: Object.fromEntries(BID_FIELDS.map((f) => [f, KINDS[f] ?? 'text'])),
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
  fts: {
    columns: ['bid_title', 'other'],
    text: (r) => [
      r.bid_title as string,
      [r.bid_description, r.procuring_entity, r.winner_name, r.ministry, r.classification_code].filter(Boolean).join(' '),
    ],
  },
});
