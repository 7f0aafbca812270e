// Loans and mutual-aid plans, read from the catalogue's `loans_mutual_aid`
// (516 rows). Structured filters run in SQL; the name words and the
// mutual-plan classification (computed from the plan name, plan-kinds.ts)
// filter the ordered rows in code, then the page is cut.
import type { CatalogDatabase } from '../../catalog/db.ts';
import { likeContains, normalizeText } from '../../catalog/text-query.ts';
import { mutualPlanKind } from '../plan-kinds.ts';

export interface LoanRow {
  /** unified_id, or `LOAN-<loan_id>` for the lender's own products. */
  loan_key: string;
  plan_type: string;
  name: string;
  provider: string | null;
  program_kind: string | null;
  loan_type: string | null;
  prefecture: string | null;
  tier: string | null;
  /** amount_max_yen, else amount_max_man_yen in yen. */
  amount_max_yen: number | null;
  /** The three risk axes: required, not_required, negotiable or unknown (also when unpublished). */
  collateral_required: string;
  personal_guarantor_required: string;
  third_party_guarantor_required: string;
  interest_rate_base_annual: number | null;
  loan_period_years_max: number | null;
  source_url: string | null;
  /** Mutual-aid plans only. */
  plan_kind: string | null;
  tax_deduction_type: string | null;
}

export interface LoanFilter {
  planType: 'loan' | 'mutual_aid';
  nameTerms: string[];
  provider?: string;
  loanKind?: string;
  planKind?: string;
  taxDeductionType?: string;
  prefecture?: string;
  noCollateral?: boolean;
  noPersonalGuarantor?: boolean;
  noThirdPartyGuarantor?: boolean;
  minAmountYen?: number;
  maxAmountYen?: number;
  limit: number;
  offset: number;
}

const axis = (column: string): string => `CASE WHEN ${column} IN ('required', 'not_required', 'negotiable') THEN ${column} ELSE 'unknown' END AS ${column}`;

const SELECT = `SELECT * FROM (SELECT
    coalesce(nullif(unified_id, ''), 'LOAN-' || loan_id) AS loan_key, plan_type, name, provider, program_kind, loan_type,
    prefecture, tier, coalesce(amount_max_yen, round(amount_max_man_yen * 10000)) AS amount_max_yen,
    ${axis('collateral_required')}, ${axis('personal_guarantor_required')}, ${axis('third_party_guarantor_required')},
    interest_rate_base_annual, loan_period_years_max, source_url
  FROM loans_mutual_aid)`;

export function searchLoans(db: CatalogDatabase, f: LoanFilter): { total: number; rows: LoanRow[] } {
  const where = ['plan_type = ?'];
  const params: (string | number | null)[] = [f.planType];
  if (f.provider) {
    where.push("lower(coalesce(provider, '')) LIKE ? ESCAPE '\\'");
    params.push(likeContains(normalizeText(f.provider)));
  }
  if (f.loanKind) {
    where.push('(loan_type = ? OR program_kind = ?)');
    params.push(f.loanKind, f.loanKind);
  }
  if (f.prefecture) {
    where.push('prefecture = ?');
    params.push(f.prefecture);
  }
  if (f.noCollateral) where.push("collateral_required = 'not_required'");
  if (f.noPersonalGuarantor) where.push("personal_guarantor_required = 'not_required'");
  if (f.noThirdPartyGuarantor) where.push("third_party_guarantor_required = 'not_required'");
  if (f.minAmountYen !== undefined) {
    where.push('amount_max_yen >= ?');
    params.push(f.minAmountYen);
  }
  if (f.maxAmountYen !== undefined) {
    where.push('amount_max_yen <= ?');
    params.push(f.maxAmountYen);
  }
  const rows = db.all<Omit<LoanRow, 'plan_kind' | 'tax_deduction_type'>>(
    `${SELECT} WHERE ${where.join(' AND ')}
     ORDER BY CASE tier WHEN 'S' THEN 0 WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 3 ELSE 4 END, name, loan_key`,
    ...params,
  );
  const terms = f.nameTerms.map(normalizeText).filter(Boolean);
  const matching = rows
    .map((r): LoanRow => ({ ...r, ...(r.plan_type === 'mutual_aid' ? mutualPlanKind(r.name) : { plan_kind: null, tax_deduction_type: null }) }))
    .filter((r) => terms.every((t) => normalizeText(r.name).includes(t)))
    .filter((r) => (!f.planKind || r.plan_kind === f.planKind) && (!f.taxDeductionType || r.tax_deduction_type === f.taxDeductionType));
  return { total: matching.length, rows: matching.slice(f.offset, f.offset + f.limit) };
}
