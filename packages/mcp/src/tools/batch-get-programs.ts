// batch_get_programs: up to 50 programs in one call, duplicates collapsed.
import { z } from 'zod';
import { defineTool, READ_ONLY, ToolInputError } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

export const batchGetPrograms = defineTool({
  name: 'batch_get_programs',
  title: 'Get up to 50 programs',
  description:
    'Up to 50 programmes by id in one call (full records; duplicates collapsed, unknown ids in not_found). Use to compare a shortlist. Not for searching.',
  input: {
    unified_ids: z.array(z.string().min(1).max(100)).min(1).max(50).describe('1 to 50 program ids'),
  },
  output: { results: o.rows(), not_found: z.array(z.string()).describe('Ids that are not in the catalogue') },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: { results: [], not_found: [] },
  async run(call, a) {
    const ids = [...new Set(a.unified_ids)];
    if (ids.length > 50)
      throw new ToolInputError('limit_exceeded', `unified_ids accepts at most 50 distinct ids (got ${ids.length})`, 'Split the call into chunks of 50.');
    const body = await call.api.programs.batch({ unified_ids: ids });
    const out = { results: body.results, not_found: body.not_found, attribution: body.attribution };
    if (body.results.length > 0) return out;
    return {
      ...out,
      coverage: { ids_asked: ids.length, not_found: body.not_found.length },
      explanation: `None of the ${ids.length} id(s) is in the catalogue (see not_found).`,
    };
  },
});
