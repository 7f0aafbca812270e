// search_bids: public procurement notices and results.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

export const searchBids = defineTool({
  name: 'search_bids',
  title: 'Search public bids',
  description: 'Search public procurement notices and results by keywords, kind, procuring or winning corporate number, amount and deadline.',
  input: {
    q: f.q('bid titles and descriptions'),
    bid_kind: z.enum(['open', 'selective', 'negotiated', 'kobo_subsidy']).optional().describe('Procurement kind'),
    procuring_houjin_bangou: f.houjin('Corporate number of the procuring body (13 digits)'),
    winner_houjin_bangou: f.houjin('Corporate number of the winner (13 digits)'),
    program_id_hint: z.string().max(100).optional().describe('Program unified_id the bid relates to'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest amount, yen'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest amount, yen'),
    deadline_after: f.date('Only bids whose deadline is after this date'),
    limit: f.limit(100, 20, 'bids'),
    offset: f.offset(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  async run(call, a) {
    const body = await call.api.bids.search(compact({
      q: a.q, bid_kind: a.bid_kind, procuring_houjin_bangou: a.procuring_houjin_bangou, winner_houjin_bangou: a.winner_houjin_bangou,
      program_id_hint: a.program_id_hint, min_amount_yen: a.min_amount_yen, max_amount_yen: a.max_amount_yen,
      deadline_after: a.deadline_after, limit: a.limit, offset: a.offset,
    }));
    return noHits('bid', asSearch(body));
  },
});
