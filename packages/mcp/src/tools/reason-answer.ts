// reason_answer: an answer skeleton filled from the catalogue, with sources
// and the data still missing.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Payload } from '../lib/define.ts';
import { insufficientData } from '../lib/no-data.ts';

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
    const answer = (await call.api.am.reason({ query: a.query, persona: a.persona })) as Payload;
    const sources = Array.isArray(answer.source_urls) ? answer.source_urls : [];
    const coverage = { records_cited: sources.length, missing_data: answer.missing_data ?? [], filters_extracted: answer.filters_extracted ?? null };
    // Nothing in the catalogue bound to the question: a skeleton without records is no answer.
    if (answer.db_bind_ok === false || sources.length === 0) {
      const notes = Array.isArray(answer.db_bind_notes) ? answer.db_bind_notes.join('; ') : 'no record matched';
      return insufficientData(
        `The catalogue holds nothing to answer this with (${notes}); give ${(answer.missing_data as string[] | undefined)?.join(', ') || 'more detail'} or search by its words.`,
        coverage,
        {
          intent: answer.intent ?? null,
          missing_data: answer.missing_data ?? [],
        },
      );
    }
    return {
      ...answer,
      coverage,
      explanation: `Cites the programme search's first ${sources.length} row(s) for the question as read (filters_extracted); each line of the skeleton names its source by number.`,
    };
  },
});
