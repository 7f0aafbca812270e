// intent_of: classify a question into one of the fixed intent clusters.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Payload } from '../lib/define.ts';
import { insufficientData } from '../lib/no-data.ts';
import { o } from '../lib/fields.ts';

export const intentOf = defineTool({
  name: 'intent_of',
  title: 'Classify a question',
  description: 'Classify a plain-language question into a fixed intent cluster, with scores. Use to route a vague question to a tool.',
  input: { query: z.string().min(1).max(500).describe('The question') },
  output: {
    intent_id: z.string().nullable().describe('Best intent'),
    confidence: z.number().nullable().optional().describe('Score of the best intent'),
    all_scores: o.rows(),
  },
  annotations: READ_ONLY,
  empty: { intent_id: null, all_scores: [] },
  async run(call, a) {
    const answer = (await call.api.am.intent({ query: a.query })) as Payload;
    const scores = Array.isArray(answer.all_scores) ? answer.all_scores : [];
    const coverage = { intents: scores.length, matched: answer.matched === true };
    // No cue of any intent in the question: the first intent is only the default, not a reading of it.
    if (answer.matched === false) {
      return insufficientData(
        `No cue of any of the ${scores.length} intents is in the question, so it cannot be classified; rephrase it (sample_queries) or call search_programs with its words.`,
        coverage,
        { sample_queries: answer.sample_queries ?? [] },
      );
    }
    return { ...answer, coverage, explanation: `Read as ${String(answer.intent_id)} (confidence ${String(answer.confidence)}), by the cues in all_scores.` };
  },
});
