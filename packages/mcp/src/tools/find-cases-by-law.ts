// find_cases_by_law: enforcement findings that cite a statute, and court
// rulings, which this deployment does not hold (`no_data` names that part).
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';
import { COURT_NOTE, noData } from '../lib/no-data.ts';
import { rowsOf } from '../lib/search.ts';

export const findCasesByLaw = defineTool({
  name: 'find_cases_by_law',
  title: 'Cases citing a statute',
  description:
    'Enforcement findings that cite a statute. Court rulings are not held: court_decisions is always empty (named in no_data); include_enforcement=false answers status no_data.',
  input: {
    law_unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits'),
    include_enforcement: z.boolean().default(true).describe('Include findings citing the law'),
    limit: f.limit(100, 20, 'cases'),
  },
  output: {
    law: o.record(),
    court_decisions: o.rows(),
    enforcement_cases: o.rows(),
    results: o.rows(),
    no_data: z.array(z.string()).describe('Parts of the answer this deployment holds no data for'),
  },
  annotations: READ_ONLY,
  empty: { law: null, court_decisions: [], enforcement_cases: [], results: [], no_data: ['court_decisions'] },
  async run(call, a) {
    const law: Row = await call.api.laws.get(a.law_unified_id);
    const courts = { law, court_decisions: [], no_data: ['court_decisions'] };
    if (!a.include_enforcement) {
      return noData(COURT_NOTE, 'Set include_enforcement=true for enforcement findings that cite the law.', { ...courts, enforcement_cases: [], results: [] });
    }
    const enforcement = typeof law.title === 'string' ? rowsOf(await call.api.enforcement.search({ q: law.title, limit: a.limit })) : [];
    return {
      ...courts,
      enforcement_cases: enforcement,
      results: enforcement,
      explanation: `${enforcement.length} enforcement finding(s) cite this law. ${COURT_NOTE}`,
    };
  },
});
