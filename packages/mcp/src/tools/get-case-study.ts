// get_case_study: one case study record.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getCaseStudy = defineTool({
  name: 'get_case_study',
  title: 'Get one case study',
  description: 'Fetch one case study record by its id.',
  input: { case_id: z.string().min(1).max(200).describe('Case id as returned by search_case_studies') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.caseStudies.get(a.case_id);
    return { record };
  },
});
