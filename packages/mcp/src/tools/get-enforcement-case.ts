// get_enforcement_case: one improper-use finding or administrative action.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getEnforcementCase = defineTool({
  name: 'get_enforcement_case',
  title: 'Get one enforcement finding',
  description: 'Fetch one improper-use finding or administrative action by its id.',
  input: { case_id: z.string().min(1).max(200).describe('Finding id as returned by search_enforcement_cases') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.enforcement.get(a.case_id);
    return { record };
  },
});
