// active_programs_at: programs and tax measures in force on a date, narrowed
// by industry and company size where programs publish them.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { SIZE5 } from '../lib/company-size.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { regionArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';

export const activeProgramsAt = defineTool({
  name: 'active_programs_at',
  title: 'Programs in force on a date',
  description: "Programmes and tax measures valid on a given date (a point-in-time view). Use for 'what was in force then'.",
  input: {
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .describe('The date, YYYY-MM-DD'),
    region: f.region(),
    industry: z.string().max(100).optional().describe('JSIC letter (A-T) or industry word (製造業)'),
    size: SIZE5.optional().describe('Company size'),
    limit: f.limit(100, 20, 'records'),
  },
  output: { ...amRows(), pivot_date: z.string().nullable().optional().describe('The date checked') },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  async run(call, a) {
    return {
      ...(await call.api.am.activeAt(compact({ date: a.date, prefecture: regionArg(call, a.region), industry: a.industry, size: a.size, limit: a.limit }))),
    };
  },
});
