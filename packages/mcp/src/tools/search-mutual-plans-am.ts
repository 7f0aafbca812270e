// search_mutual_plans_am: mutual-aid, pension and insurance plans. The
// dataset publishes no premiums, so the reference's premium filter is
// accepted but declared not applied (a warning, never a silent filter).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { explainEmpty } from '../lib/coverage.ts';
import { compact } from '../lib/search.ts';

export const searchMutualPlansAm = defineTool({
  name: 'search_mutual_plans_am',
  title: 'Search mutual-aid plans',
  description:
    "Mutual-aid, pension and insurance plans (小規模企業共済, 倒産防止共済, …) by kind, tax treatment, provider and name. Use for an owner's retirement or bankruptcy cover.",
  input: {
    plan_kind: z
      .enum(['retirement_mutual', 'bankruptcy_mutual', 'dc_pension', 'db_pension', 'industry_pension', 'welfare_insurance', 'health_insurance', 'other'])
      .optional()
      .describe('Plan kind'),
    premium_monthly_yen: z.number().int().min(0).optional().describe('Monthly premium, yen'),
    tax_deduction_type: z
      .enum(['small_enterprise_deduction', 'idekodc', 'group_retirement', 'corp_expense', 'none'])
      .optional()
      .describe('Tax treatment of the premium'),
    provider_entity_id: z.string().max(200).optional().describe('Provider id or name'),
    name_query: z.string().max(200).optional().describe('Name keywords'),
    limit: f.limit(100, 10, 'plans'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  notApplied: { premium_monthly_yen: 'plans carry no premium amounts' },
  async run(call, a) {
    const out = {
      ...(await call.api.am.mutualPlans(
        compact({ plan_kind: a.plan_kind, tax_deduction_type: a.tax_deduction_type, provider: a.provider_entity_id, name_query: a.name_query, limit: a.limit }),
      )),
    };
    if ((out.results as unknown[] | undefined)?.length) return out;
    const empty = await explainEmpty(call.api, 'loans_mutual_aid', 'loan and mutual-aid records', out);
    return typeof out.retrieval_note === 'string' ? { ...empty, explanation: `${String(empty.explanation)} ${out.retrieval_note}` } : empty;
  },
});
