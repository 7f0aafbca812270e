// trace_program_to_law: the statutes a program is based on. The entity graph
// records no successor links between laws, so there is no revision chain to
// follow (and no request is spent looking for one).
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

export const traceProgramToLaw = defineTool({
  name: 'trace_program_to_law',
  title: 'Laws behind a program',
  description: "Statutes a programme is based on or refers to. Use to cite a programme's legal basis.",
  input: {
    program_unified_id: z.string().min(1).max(100).describe('Program id'),
    follow_revision_chain: z.boolean().default(true).describe('Also fetch successor laws'),
  },
  output: { program: o.record(), results: o.rows() },
  annotations: READ_ONLY,
  empty: { program: null, results: [] },
  notApplied: { follow_revision_chain: 'the entity graph records no successor links between laws' },
  async run(call, a) {
    const program: Row = await call.api.programs.get(a.program_unified_id, { fields: 'minimal' });
    const graph = await call.api.am.related(a.program_unified_id, { relation_types: 'based_on_law', depth: 1 });
    const relations = (graph.relations ?? []) as Row[];
    const lawIds = new Set(relations.map((r) => (r.src_id === a.program_unified_id ? r.dst_id : r.src_id)));
    const results = ((graph.nodes ?? []) as Row[]).filter((node) => lawIds.has(node.entity_id));
    return { program, results, explanation: results.length === 0 ? 'The catalogue records no law reference for this program.' : null };
  },
});
