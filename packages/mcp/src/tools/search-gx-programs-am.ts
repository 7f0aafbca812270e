// search_gx_programs_am: green-transformation programs by theme. The
// applicant filter is a company size (sme, midsize, large, individual) or an
// applicant kind (municipality, farmer), the server's `size` and `target`.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { regionArg } from '../lib/prefecture.ts';
import { compact } from '../lib/search.ts';

/** The reference's one applicant field, split into the server's size and applicant-kind filters. */
function applicant(value: string | undefined): { size?: string; target?: string } {
  if (value === undefined) return {};
  return value === 'municipality' || value === 'farmer' ? { target: value } : { size: value };
}

export const searchGxProgramsAm = defineTool({
  name: 'search_gx_programs_am',
  title: 'Green-transformation programs',
  description:
    'Green-transformation programmes (emission cuts, EVs, renewables, ZEB/ZEH, carbon credits) by theme, size and region. Use for decarbonisation support.',
  input: {
    theme: z.enum(['ghg_reduction', 'ev', 'renewable', 'zeb_zeh', 'carbon_credit']).default('ghg_reduction').describe('Theme'),
    company_size: z.enum(['sme', 'midsize', 'large', 'individual', 'municipality', 'farmer']).optional().describe('Applicant size or kind'),
    region: f.region(),
    limit: f.limit(100, 20, 'programs'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  async run(call, a) {
    return { ...(await call.api.am.gxPrograms(compact({ theme: a.theme, region: regionArg(call, a.region), ...applicant(a.company_size), limit: a.limit }))) };
  },
});
