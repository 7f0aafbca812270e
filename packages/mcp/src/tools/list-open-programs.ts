// list_open_programs: programs whose application window is open on a date,
// narrowed by industry and company size where programs publish them.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { SIZE5 } from '../lib/company-size.ts';
import { resolveAsOf } from '../lib/dates.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { regionArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';
import { windowCoverage, windowSentence } from '../lib/window-coverage.ts';

export const listOpenPrograms = defineTool({
  name: 'list_open_programs',
  title: 'Programs open for applications',
  description:
    "Programmes whose application window is open on a date, with the days left. Use for 'what can I apply for now'. Windows are known for few programmes.",
  input: {
    on_date: f.date('Date to check (defaults to as_of)'),
    as_of: f.asOf(),
    region: f.region(),
    industry: z.string().max(100).optional().describe('JSIC letter (A-T) or industry word (製造業)'),
    size: SIZE5.optional().describe('Company size'),
    natural_query: z.string().max(500).optional().describe('Keywords in plain words'),
    limit: f.limit(100, 20, 'programs'),
  },
  output: { ...amRows(), pivot_date: z.string().nullable().optional().describe('The date checked') },
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  async run(call, a) {
    const [body, coverage] = await Promise.all([
      call.api.am.openPrograms(
        compact({
          pivot_date: a.on_date ?? resolveAsOf(a.as_of),
          prefecture: regionArg(call, a.region),
          query: a.natural_query,
          industry: a.industry,
          size: a.size,
          limit: a.limit,
        }),
      ),
      windowCoverage(call.api),
    ]);
    const n = Array.isArray(body.results) ? body.results.length : 0;
    return { ...body, coverage, explanation: `${n} programme(s) with a known open window. ${windowSentence(coverage)}` };
  },
});
