// get_tax_rule: one tax ruleset by TAX- id.
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';
import { TAX_ID } from '../lib/ids.ts';

export const getTaxRule = defineTool({
  name: 'get_tax_rule',
  title: 'Get one tax ruleset',
  description: 'Fetch one tax ruleset by its TAX- id, with its legal basis and machine-readable eligibility predicate.',
  input: { unified_id: TAX_ID.describe('Ruleset id, TAX- followed by 10 hex digits') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.taxRulesets.get(a.unified_id);
    return { record };
  },
});
