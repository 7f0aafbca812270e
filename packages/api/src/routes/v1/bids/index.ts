// /v1/bids: public bids (BidOut exactly). The bundled dataset holds none; an
// operator loads them from bids.jsonl at ingest (catalog/loaders/bids.ts).
// The response schemas forbid additional properties and are serialised by
// them, so a column that is not in BidOut can never reach a client.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ATTRIBUTION, errorResponses } from '../../../schemas/common.ts';
import { Bid, BidsSearchQuery, BidsSearchResponse } from '../../../schemas/bids.ts';
import { getBid, searchBids } from '../../../catalog/queries/record-sets.ts';
import { dateParam, notFound, page } from '../record-set-helpers.ts';
import { HttpError } from '../../../plugins/errors.ts';

const bidsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/search', {
    config: { access: 'public', counter: 'daily', billed: true },
    schema: {
      operationId: 'searchBids',
      tags: ['bids'],
      summary: 'Search public bids by free text, kind, corporate numbers, program hint, amount and deadline',
      querystring: BidsSearchQuery,
      response: { 200: BidsSearchResponse, ...errorResponses(400, 401, 429) },
    },
  }, async (request) => {
    const q = request.query;
    const { limit, offset } = page(q);
    if (q.min_amount_yen !== undefined && q.max_amount_yen !== undefined && q.min_amount_yen > q.max_amount_yen) {
      throw new HttpError(400, 'Invalid querystring: min_amount_yen must not exceed max_amount_yen');
    }
    const { total, rows } = searchBids(app.catalog.db, {
      q: q.q, bidKind: q.bid_kind, procuringHoujinBangou: q.procuring_houjin_bangou, winnerHoujinBangou: q.winner_houjin_bangou,
      programIdHint: q.program_id_hint, prefecture: q.prefecture, minAmountYen: q.min_amount_yen, maxAmountYen: q.max_amount_yen,
      deadlineAfter: dateParam('deadline_after', q.deadline_after), limit, offset,
    });
    return { total, limit, offset, results: rows as never[], attribution: ATTRIBUTION };
  });

  app.get('/:unified_id', {
    config: { access: 'public', counter: 'daily', billed: true },
    schema: {
      operationId: 'getBid',
      tags: ['bids'],
      summary: 'One bid by unified_id (BID-…)',
      params: Type.Object({ unified_id: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 200: Bid, ...errorResponses(400, 401, 404, 429) },
    },
  }, async (request) => {
    const row = getBid(app.catalog.db, request.params.unified_id);
    return (row ?? notFound('Bid', request.params.unified_id)) as never;
  });
};

export default bidsRoutes;
