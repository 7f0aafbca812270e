// check_exclusions: the exclusion rules a combination of programs triggers.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

export const checkExclusions = defineTool({
  name: 'check_exclusions',
  title: 'Check a program combination',
  description:
    'Test programmes (ids or slugs) together against the combination rules: conflicts, prerequisites, and conditional rules to check. Use before recommending a combination. Few programmes are covered by any rule: no hit is not proof of compatibility.',
  input: {
    program_ids: z.array(z.string().min(1).max(200)).min(1).max(50).describe('Programme ids or slugs'),
  },
  output: { program_ids: z.array(z.string()).describe('The de-duplicated input'), hits: o.rows(), checked_rules: z.number().int().describe('Rules examined') },
  annotations: READ_ONLY,
  empty: { program_ids: [], hits: [], checked_rules: 0 },
  async run(call, a) {
    const body = await call.api.exclusions.check({ program_ids: a.program_ids });
    return {
      program_ids: body.program_ids,
      hits: body.hits,
      checked_rules: body.checked_rules,
      attribution: body.attribution,
      result_count: body.hits.length,
      explanation:
        body.hits.length === 0 ? `No rule is triggered by this combination (${body.checked_rules} rules checked).` : `${body.hits.length} rule(s) triggered.`,
    };
  },
});
