// get_program: one program by unified id, at a chosen level of detail.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { PROGRAM_SHAPE } from '../lib/enums.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';

export const getProgram = defineTool({
  name: 'get_program',
  title: 'Get one program',
  description:
    "One programme by its id (UNI-…). Use to cite a programme's details after a search; fields=full for the whole record. Not for several ids (batch_get_programs).",
  input: {
    unified_id: z.string().min(1).max(100).describe('Program id, e.g. UNI-0123456789'),
    fields: PROGRAM_SHAPE.default('default').describe('minimal (7 keys), default (all fields) or full (plus enrichment and lineage)'),
  },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.programs.get(a.unified_id, { fields: a.fields });
    return { record };
  },
});
