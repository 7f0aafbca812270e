// list_law_revisions: the supersession chain of a statute. The catalogue
// records each law's status and last amendment but no links between laws, so
// the chain is the law itself; max_hops has nothing to follow.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';

export const listLawRevisions = defineTool({
  name: 'list_law_revisions',
  title: 'Revision chain of a law',
  description:
    'Walk the chain of a statute: the law itself with its status and last amendment, and the laws it superseded or that superseded it, as far as the catalogue records them (it records no links between laws yet).',
  input: {
    unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    max_hops: z.number().int().min(1).max(20).default(10).describe('Most links to follow in each direction (1 to 20)'),
  },
  output: { law: o.record(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { law: null, results: [] },
  notApplied: { max_hops: 'the catalogue records no supersession links between laws' },
  async run(call, a) {
    const law: Row = await call.api.laws.get(a.unified_id);
    return {
      law,
      results: [],
      result_count: 1,
      explanation: `The catalogue records no predecessor or successor for this law (status: ${String(law.status ?? 'unknown')}, last amended ${String(law.last_amended_on ?? 'unknown')}).`,
    };
  },
});
