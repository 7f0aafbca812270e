// intent_of: classify a question into one of the fixed intent clusters.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
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
    return { ...(await call.api.am.intent({ query: a.query })) };
  },
});
