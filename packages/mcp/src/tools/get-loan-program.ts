// get_loan_program: one loan product or loan program.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getLoanProgram = defineTool({
  name: 'get_loan_program',
  title: 'Get one loan product',
  description: 'Fetch one loan product or loan program by its id.',
  input: { loan_id: z.union([z.number().int(), z.string().min(1).max(200)]).describe('Loan id as returned by search_loan_programs (number or string id)') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.loans.get(a.loan_id);
    return { record };
  },
});
