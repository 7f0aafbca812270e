// search_loans_am: loan products with no-collateral / no-guarantor switches.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { compact } from '../lib/search.ts';

export const searchLoansAm = defineTool({
  name: 'search_loans_am',
  title: 'Search loans (entity store)',
  description:
    'Loan products with switches for no collateral, no personal or no third-party guarantor, plus kind, amount and lender. Same records as search_loan_programs: use this one for the no-guarantor switches.',
  input: {
    loan_kind: z.enum(['ippan', 'trou', 'seirei', 'sanko', 'sogyo', 'rinsei', 'saigai', 'shingiseikyu', 'kiki', 'other']).optional().describe('Loan kind'),
    no_collateral: z.boolean().default(false).describe('Only loans without collateral'),
    no_personal_guarantor: z.boolean().default(false).describe('Only loans without a personal guarantor'),
    no_third_party_guarantor: z.boolean().default(false).describe('Only loans without a third-party guarantor'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest amount, yen'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest amount, yen'),
    lender_entity_id: z.string().max(200).optional().describe('Lender id or name'),
    name_query: z.string().max(200).optional().describe('Name keywords'),
    limit: f.limit(100, 10, 'loans'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  async run(call, a) {
    // A false switch means "no constraint", so it is left out rather than sent as false.
    return {
      ...(await call.api.am.loans(
        compact({
          loan_kind: a.loan_kind,
          no_collateral: a.no_collateral || undefined,
          no_personal_guarantor: a.no_personal_guarantor || undefined,
          no_third_party_guarantor: a.no_third_party_guarantor || undefined,
          max_amount_yen: a.max_amount_yen,
          min_amount_yen: a.min_amount_yen,
          provider: a.lender_entity_id,
          name_query: a.name_query,
          limit: a.limit,
        }),
      )),
    };
  },
});
