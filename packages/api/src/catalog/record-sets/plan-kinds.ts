// The vocabulary of mutual-aid plans: kind and tax treatment of the premium,
// classified from the plan's name at ingest (the dataset publishes neither):
// the derived columns plan_kind and tax_deduction_type of the loans spec
// (loans.ts), which GET /v1/loans/search and /v1/am/mutual_plans filter on.

export const PLAN_KINDS = [
  'retirement_mutual',
  'bankruptcy_mutual',
  'dc_pension',
  'db_pension',
  'industry_pension',
  'welfare_insurance',
  'health_insurance',
  'other',
] as const;
export const TAX_DEDUCTION_TYPES = ['small_enterprise_deduction', 'idekodc', 'group_retirement', 'corp_expense', 'none'] as const;

/** Plan kind and tax treatment from the plan name (共済, 年金, 保険 names). */
export function mutualPlanKind(name: string): { plan_kind: string; tax_deduction_type: string } {
  if (/小規模企業共済/.test(name)) return { plan_kind: 'retirement_mutual', tax_deduction_type: 'small_enterprise_deduction' };
  if (/セーフティ共済|倒産防止/.test(name)) return { plan_kind: 'bankruptcy_mutual', tax_deduction_type: 'corp_expense' };
  if (/退職金共済|退共|特退共/.test(name)) return { plan_kind: 'retirement_mutual', tax_deduction_type: 'corp_expense' };
  if (/確定拠出|iDeCo|イデコ/i.test(name)) return { plan_kind: 'dc_pension', tax_deduction_type: 'idekodc' };
  if (/確定給付/.test(name)) return { plan_kind: 'db_pension', tax_deduction_type: 'corp_expense' };
  if (/年金/.test(name)) return { plan_kind: 'industry_pension', tax_deduction_type: 'none' };
  if (/健康保険/.test(name)) return { plan_kind: 'health_insurance', tax_deduction_type: 'none' };
  if (/災害補償|厚生|保険/.test(name)) return { plan_kind: 'welfare_insurance', tax_deduction_type: 'none' };
  return { plan_kind: 'other', tax_deduction_type: 'none' };
}
