// /v1/am/loans and /v1/am/mutual_plans: loan products with the
// no-collateral / no-guarantor switches, and mutual-aid plans by kind and
// tax treatment.
import type { CatalogDatabase } from '../catalog/db.ts';
import { normalizeText } from '../catalog/text-query.ts';
import { amError, type AmError } from './envelope.ts';
import { prefectureParam } from './params.ts';
import { PLAN_KINDS, TAX_DEDUCTION_TYPES } from './plan-kinds.ts';
import { searchLoans, type LoanRow } from './queries/loans.ts';

export interface LoanSearchResponse {
  results: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
  result_count: number;
  error: AmError | null;
  retrieval_note: string;
}

function loanRow(r: LoanRow): Record<string, unknown> {
  return {
    id: r.loan_key,
    plan_type: r.plan_type,
    name: r.name,
    provider: r.provider,
    program_kind: r.program_kind,
    loan_type: r.loan_type,
    prefecture: r.prefecture,
    tier: r.tier,
    amount_max_yen: r.amount_max_yen,
    collateral_required: r.collateral_required,
    personal_guarantor_required: r.personal_guarantor_required,
    third_party_guarantor_required: r.third_party_guarantor_required,
    ...(r.plan_type === 'mutual_aid' ? { plan_kind: r.plan_kind, tax_deduction_type: r.tax_deduction_type } : {}),
    interest_rate_base_annual: r.interest_rate_base_annual,
    loan_period_years_max: r.loan_period_years_max,
    source_url: r.source_url,
  };
}

export const LOAN_KINDS = ['ippan', 'trou', 'seirei', 'sanko', 'sogyo', 'rinsei', 'saigai', 'shingiseikyu', 'kiki', 'other'] as const;

export interface LoansParams {
  name_query?: string;
  provider?: string;
  loan_kind?: string;
  prefecture?: string;
  no_collateral?: boolean;
  no_personal_guarantor?: boolean;
  no_third_party_guarantor?: boolean;
  min_amount_yen?: number;
  max_amount_yen?: number;
  limit: number;
  offset: number;
}

export function loans(db: CatalogDatabase, p: LoansParams): LoanSearchResponse {
  const base = { results: [], total: 0, limit: p.limit, offset: p.offset, result_count: 0, error: null, retrieval_note: '' };
  const pref = prefectureParam(p.prefecture);
  if (pref.error) return { ...base, error: pref.error };
  const { total, rows } = searchLoans(db, {
    planType: 'loan',
    nameTerms: p.name_query ? normalizeText(p.name_query).split(' ').slice(0, 8) : [],
    provider: p.provider,
    loanKind: p.loan_kind,
    prefecture: pref.prefecture ?? undefined,
    noCollateral: p.no_collateral,
    noPersonalGuarantor: p.no_personal_guarantor,
    noThirdPartyGuarantor: p.no_third_party_guarantor,
    minAmountYen: p.min_amount_yen,
    maxAmountYen: p.max_amount_yen,
    limit: p.limit,
    offset: p.offset,
  });
  const results = rows.map(loanRow);
  return {
    ...base,
    results,
    total,
    result_count: results.length,
    retrieval_note:
      'the three risk axes (collateral, personal and third-party guarantor) are published for 2 JFC products only; the other loan records carry `unknown` and never pass a no_* switch',
  };
}

export function mutualPlans(
  db: CatalogDatabase,
  p: { name_query?: string; provider?: string; plan_kind?: string; tax_deduction_type?: string; limit: number; offset: number },
): LoanSearchResponse {
  const base = { results: [], total: 0, limit: p.limit, offset: p.offset, result_count: 0, error: null, retrieval_note: '' };
  if (p.plan_kind && !(PLAN_KINDS as readonly string[]).includes(p.plan_kind)) {
    return { ...base, error: amError('invalid_enum', 'unknown plan_kind', `plan_kind is one of ${PLAN_KINDS.join(', ')}`) };
  }
  if (p.tax_deduction_type && !(TAX_DEDUCTION_TYPES as readonly string[]).includes(p.tax_deduction_type)) {
    return { ...base, error: amError('invalid_enum', 'unknown tax_deduction_type', `tax_deduction_type is one of ${TAX_DEDUCTION_TYPES.join(', ')}`) };
  }
  const { total, rows } = searchLoans(db, {
    planType: 'mutual_aid',
    nameTerms: p.name_query ? normalizeText(p.name_query).split(' ').slice(0, 8) : [],
    provider: p.provider,
    planKind: p.plan_kind,
    taxDeductionType: p.tax_deduction_type,
    limit: p.limit,
    offset: p.offset,
  });
  const results = rows.map(loanRow);
  return {
    ...base,
    results,
    total,
    result_count: results.length,
    retrieval_note: 'plan_kind and tax_deduction_type are classified from the plan name at ingest (共済 names); premiums are not in the dataset',
  };
}
