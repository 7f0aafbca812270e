// get_am_tax_rule: structured rules of a named tax measure.
import { z } from 'zod';
import { defineTool, READ_ONLY, type Payload } from '../lib/define.ts';
import { explainEmpty } from '../lib/coverage.ts';
import { AM_EMPTY, amRows } from '../lib/fields.ts';
import { compact } from '../lib/search.ts';

export const getAmTaxRule = defineTool({
  name: 'get_am_tax_rule',
  title: 'Rules of a tax measure',
  description: "The structured rules (rate or amount, legal basis, validity) of a named tax measure, as of a date. Use to quote a measure's terms.",
  input: {
    measure_name_or_id: z.string().min(1).max(200).describe('Measure name or TAX- id'),
    rule_type: z.enum(['credit', 'deduction', 'reduction', 'special_depreciation', 'immediate_writeoff', 'exemption']).optional().describe('Rule type'),
    as_of: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .optional()
      .describe('Reference date, YYYY-MM-DD'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  async run(call, a) {
    const out: Payload = { ...(await call.api.am.taxRule(compact({ measure_name_or_id: a.measure_name_or_id, rule_type: a.rule_type, as_of: a.as_of }))) };
    const rows = Array.isArray(out.results) ? out.results : [];
    return rows.length > 0 ? out : await explainEmpty(call.api, 'tax_rulesets', 'tax rulesets', { ...out, results: rows });
  },
});
