// get_meta: dataset counts and freshness.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';

export const getMeta = defineTool({
  name: 'get_meta',
  title: 'Dataset statistics',
  description: 'Dataset counts and freshness: programmes per tier and prefecture, rules, last ingest. Use to state what the data covers or how old it is.',
  input: {},
  output: {
    total_programs: z.number().int().describe('Programs in the catalogue'),
    tier_counts: z.record(z.number()).describe('Programs per tier'),
    prefecture_counts: z.record(z.number()).describe('Programs per prefecture; _none = nationwide/unlabelled'),
    exclusion_rules_count: z.number().int().describe('Exclusion rules'),
    last_ingested_at: z.string().describe('Last data load (UTC)'),
  },
  annotations: READ_ONLY,
  empty: { total_programs: 0, tier_counts: {}, prefecture_counts: {}, exclusion_rules_count: 0, last_ingested_at: '' },
  async run(call) {
    return { ...(await call.api.meta()) };
  },
});
