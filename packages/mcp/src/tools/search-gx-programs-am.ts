// search_gx_programs_am: green-transformation programs by theme. The
// applicant-size filter waits for server-side support (the entity-graph
// work); until then it is declared not applied.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { regionArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';

export const searchGxProgramsAm = defineTool({
  name: 'search_gx_programs_am',
  title: 'Green-transformation programs',
  description: 'Search green-transformation programs (emission cuts, EVs, renewables, net-zero buildings, carbon credits) by theme, size and region.',
  input: {
    theme: z.enum(['ghg_reduction', 'ev', 'renewable', 'zeb_zeh', 'carbon_credit']).default('ghg_reduction').describe('Theme'),
    company_size: z.enum(['sme', 'midsize', 'large', 'individual', 'municipality', 'farmer']).optional().describe('Applicant size or kind'),
    region: f.region(),
    limit: f.limit(100, 20, 'programs'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  empty: AM_EMPTY,
  notApplied: { company_size: 'GX programs carry no applicant-size field' },
  async run(call, a) {
    return { ...(await call.api.am.gxPrograms(compact({ theme: a.theme, region: regionArg(call, a.region), limit: a.limit }))) };
  },
});
