// active_programs_at: programs and tax measures in force on a date. The size
// filter waits for server-side support (the entity-graph work); until then it
// is declared not applied.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { SIZE5 } from '../lib/company-size.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { regionArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';

export const activeProgramsAt = defineTool({
  name: 'active_programs_at',
  title: 'Programs in force on a date',
  description: 'List programs and tax measures whose validity period covers a given date (a point-in-time view).',
  input: {
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').describe('The date, YYYY-MM-DD'),
    region: f.region(),
    industry: z.string().max(100).optional().describe('Industry name or JSIC code (matched as words in the name or facts)'),
    size: SIZE5.optional().describe('Company size'),
    limit: f.limit(100, 20, 'records'),
  },
  output: { ...amRows(), pivot_date: z.string().nullable().optional().describe('The date checked') },
  annotations: READ_ONLY,
  empty: AM_EMPTY,
  notApplied: { size: 'the point-in-time view has no size filter' },
  async run(call, a) {
    return { ...(await call.api.am.activeAt(compact({ date: a.date, prefecture: regionArg(call, a.region), query: a.industry, limit: a.limit }))) };
  },
});
