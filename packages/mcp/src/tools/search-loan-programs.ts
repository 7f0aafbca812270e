// search_loan_programs: loan products with independent collateral and
// guarantor filters (a record set: see search_enforcement_cases for how its
// filters will be produced).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

const RISK = z.enum(['required', 'not_required', 'negotiable', 'unknown']);
const NO_FILTER = 'the loan search has no such filter, search_loans_am filters by lender and amount';

export const searchLoanPrograms = defineTool({
  name: 'search_loan_programs',
  title: 'Search loan products',
  description: 'Search loan products and programs with separate filters for collateral, personal guarantor and third-party guarantor requirements, plus lender, amount, rate and term.',
  input: {
    q: f.q('loan names'),
    provider: z.string().max(200).optional().describe('Lender or administering body (substring)'),
    loan_type: z.string().max(100).optional().describe('Loan type code'),
    collateral_required: RISK.optional().describe('Collateral requirement'),
    personal_guarantor_required: RISK.optional().describe('Personal (representative) guarantor requirement'),
    third_party_guarantor_required: RISK.optional().describe('Third-party guarantor requirement'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest acceptable maximum amount, yen'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest acceptable maximum amount, yen'),
    max_interest_rate: z.number().min(0).optional().describe('Highest acceptable base annual rate (fraction or percent as stored)'),
    min_loan_period_years: z.number().int().min(0).optional().describe('Shortest acceptable maximum term, years'),
    limit: f.limit(100, 20, 'loans'),
    offset: f.offset(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: {
    provider: `${NO_FILTER}; it is used as the keywords when q is empty`,
    loan_type: NO_FILTER,
    min_amount_yen: NO_FILTER,
    max_amount_yen: NO_FILTER,
    max_interest_rate: NO_FILTER,
    min_loan_period_years: NO_FILTER,
  },
  async run(call, a) {
    const body = await call.api.loans.search(compact({
      q: a.q ?? a.provider, collateral: a.collateral_required, personal_guarantor: a.personal_guarantor_required,
      third_party_guarantor: a.third_party_guarantor_required, plan_type: 'loan' as const, limit: a.limit, offset: a.offset,
    }));
    return noHits('loan', asSearch(body));
  },
});
