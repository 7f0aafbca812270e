// related_programs: 1-2 hop walk of the program relation graph.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

export const relatedPrograms = defineTool({
  name: 'related_programs',
  title: 'Related programs',
  description:
    "The relation graph around a programme (prerequisite, compatible, incompatible, successor, similar), one or two hops. Use to find a programme's neighbours.",
  input: {
    program_id: z.string().min(1).max(200).describe('Seed program id (unified_id)'),
    relation_types: z
      .array(z.enum(['prerequisite', 'compatible', 'incompatible', 'successor', 'predecessor', 'similar']))
      .max(6)
      .optional()
      .describe('Relation kinds to follow (default all)'),
    depth: z.number().int().min(1).max(2).default(1).describe('Hops, 1 or 2'),
    max_edges: z.number().int().min(1).max(500).default(100).describe('Most edges to return (1 to 500)'),
  },
  output: { seed_id: z.string().describe('The seed'), nodes: o.rows(), relations: o.rows(), total_edges: z.number().int().optional().describe('Edges found') },
  annotations: READ_ONLY,
  rows: ['nodes'],
  empty: { seed_id: '', nodes: [], relations: [] },
  async run(call, a) {
    const relationTypes = a.relation_types && a.relation_types.length > 0 ? a.relation_types.join(',') : undefined;
    const body = await call.api.am.related(a.program_id, { relation_types: relationTypes, depth: a.depth, max_edges: a.max_edges });
    return { ...body, result_count: Array.isArray(body.relations) ? body.relations.length : 0 };
  },
});
