// search_invoice_registrants: qualified-invoice-issuer registrations, which
// this deployment does not hold (it says where to look).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { INVOICE_NOTE, noData, noDataSentence } from '../lib/no-data.ts';
import { prefectureArg } from '../lib/prefecture.ts';

export const searchInvoiceRegistrants = defineTool({
  name: 'search_invoice_registrants',
  title: 'Search invoice registrants',
  description: `Qualified-invoice-issuer (適格請求書発行事業者) registrations. ${noDataSentence('invoice registrations')} The explanation says where to look them up.`,
  input: {
    q: f.q('registrant names'),
    houjin_bangou: f.houjin(),
    kind: z.enum(['corporate', 'individual']).optional().describe('Registrant kind'),
    prefecture: f.prefecture(),
    registered_after: f.date('Registered on or after'),
    registered_before: f.date('Registered before'),
    active_only: z.boolean().default(true).describe('Only registrations in force'),
    limit: f.limit(100, 50, 'registrants'),
    offset: f.offset(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  holdsNoData: true,
  empty: SEARCH_EMPTY,
  async run(call, a) {
    prefectureArg(call, a.prefecture);
    return noData(INVOICE_NOTE, 'Use dd_profile_am for what this service knows about a corporate number.', {
      total: 0,
      limit: a.limit,
      offset: a.offset,
      results: [],
    });
  },
});
