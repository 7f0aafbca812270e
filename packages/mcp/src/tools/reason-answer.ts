// reason_answer: an answer skeleton filled from the catalogue, with sources
// and the data still missing.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';

export const reasonAnswer = defineTool({
  name: 'reason_answer',
  title: 'Answer skeleton with evidence',
  description:
    'An answer skeleton for a question: intent, extracted filters, values from the catalogue with sources, and the data still missing. Use to draft an answer; check each value on its source.',
  input: {
    query: z.string().min(1).max(500).describe('The question'),
    persona: z.enum(['sme_owner', 'tax_advisor', 'agri_corp', 'consultant', 'ma_advisor', 'municipality', 'generic']).optional().describe('Who is asking'),
  },
  output: {
    answer_skeleton: z.string().nullable().describe('Answer with placeholders filled from the data'),
    intent: z.string().nullable().describe('Intent'),
    missing_data: z.array(z.string()).describe('Facts the data could not supply'),
    source_urls: z.array(z.string()).describe('Sources'),
  },
  annotations: READ_ONLY,
  empty: { answer_skeleton: null, intent: null, missing_data: [], source_urls: [] },
  async run(call, a) {
    return { ...(await call.api.am.reason({ query: a.query, persona: a.persona })) };
  },
});
