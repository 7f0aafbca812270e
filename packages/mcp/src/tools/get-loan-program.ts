// get_loan_program: one loan product or loan program.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getLoanProgram = recordGetTool(RECORD_SETS.loans, (api) => api.loans);
