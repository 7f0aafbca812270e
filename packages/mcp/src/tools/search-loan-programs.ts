// search_loan_programs: loan products with independent collateral and
// guarantor filters, lender, type, amount, rate and term (the loans spec;
// the spec fixes plan_type loan).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchLoanPrograms = recordSearchTool(RECORD_SETS.loans, (api) => api.loans);
