// list_law_revisions: the supersession chain of a statute, both directions.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';

export const listLawRevisions = defineTool({
  name: 'list_law_revisions',
  title: 'Revision chain of a law',
  description: 'Walk the chain of a statute: the law itself, the laws it superseded and the laws that superseded it, as far as the catalogue records them.',
  input: {
    unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    max_hops: z.number().int().min(1).max(20).default(10).describe('Most links to follow in each direction (1 to 20)'),
  },
  output: { law: o.record(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { law: null, results: [] },
  async run(call, a) {
    const law: Row = await call.api.laws.get(a.unified_id);
    const chain: Row[] = [];
    const seen = new Set([a.unified_id]);
    for (const [direction, key] of [['predecessor', 'supersedes'], ['successor', 'superseded_by']] as const) {
      let next = law[key];
      for (let hop = 1; hop <= a.max_hops && typeof next === 'string' && !seen.has(next); hop++) {
        seen.add(next);
        const row: Row = await call.api.laws.get(next);
        chain.push({ direction, hop, law: row });
        next = row[key];
      }
    }
    return {
      law, results: chain,
      explanation: chain.length === 0
        ? `The catalogue records no predecessor or successor for this law (status: ${String(law.status ?? 'unknown')}, last amended ${String(law.last_amended_on ?? 'unknown')}).`
        : `${chain.length} linked law(s).`,
      result_count: chain.length + 1,
    };
  },
});
