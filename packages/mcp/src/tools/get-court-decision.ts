// get_court_decision: one court ruling, which this deployment does not hold.
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o } from '../lib/fields.ts';
import { HAN_ID } from '../lib/ids.ts';
import { COURT_NOTE, noData, noDataSentence } from '../lib/no-data.ts';

export const getCourtDecision = defineTool({
  name: 'get_court_decision',
  title: 'Get one court decision',
  description: `One court ruling by its HAN- id. ${noDataSentence('court decisions')}`,
  input: { unified_id: HAN_ID.describe('Ruling id, HAN- followed by 10 hex digits') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  holdsNoData: true,
  empty: { record: null },
  async run(_call, a) {
    return noData(`No court decision ${a.unified_id}: ${COURT_NOTE}`, 'Use get_enforcement_case for administrative findings.', { record: null });
  },
});
