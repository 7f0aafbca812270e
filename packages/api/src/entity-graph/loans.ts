// /v1/am/loans and /v1/am/mutual_plans: loan products with the
// no-collateral / no-guarantor switches, and mutual-aid plans by kind and
// tax treatment. Both read the loans record set through its spec
// (catalog/record-sets/loans.ts), the reader GET /v1/loans/search uses: the
// tool's parameters become the spec's filters, its name words the free text,
// and a row keeps the record's one id (`id`).
import type { CatalogDatabase } from '../catalog/db.ts';
import { searchRecords, type FilterValues, type Row } from '../catalog/queries/record-sets.ts';
import loansSpec from '../catalog/record-sets/loans.ts';
import { PLAN_KINDS, TAX_DEDUCTION_TYPES } from '../catalog/record-sets/plan-kinds.ts';
import { amError, type AmError } from './envelope.ts';
import { prefectureParam } from './params.ts';

export interface LoanSearchResponse {
  results: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
  result_count: number;
  error: AmError | null;
  retrieval_note: string;
}

/** The row of the tool: the record's fields it has always shown, the amount in yen. */
function loanRow(r: Row): Record<string, unknown> {
  const manYen = r.amount_max_man_yen as number | null;
  return {
    id: r.id,
    plan_type: r.plan_type,
    name: r.name,
    provider: r.provider,
    program_kind: r.program_kind,
    loan_type: r.loan_type,
    prefecture: r.prefecture,
    tier: r.tier,
    amount_max_yen: r.amount_max_yen ?? (manYen === null ? null : Math.round(manYen * 10000)),
    collateral_required: r.collateral_required,
    personal_guarantor_required: r.personal_guarantor_required,
    third_party_guarantor_required: r.third_party_guarantor_required,
    ...(r.plan_type === 'mutual_aid' ? { plan_kind: r.plan_kind, tax_deduction_type: r.tax_deduction_type } : {}),
    interest_rate_base_annual: r.interest_rate_base_annual,
    loan_period_years_max: r.loan_period_years_max,
    source_url: r.source_url,
  };
}

/** One page of the loans record set: the tool's response with its rows. */
function page(db: CatalogDatabase, q: string | undefined, filters: FilterValues, p: { limit: number; offset: number }, note: string): LoanSearchResponse {
  const { total, rows } = searchRecords(db, loansSpec, { q, filters, limit: p.limit, offset: p.offset });
  const results = rows.map(loanRow);
  return { results, total, limit: p.limit, offset: p.offset, result_count: results.length, error: null, retrieval_note: note };
}

const failed = (p: { limit: number; offset: number }, error: AmError): LoanSearchResponse => ({
  results: [],
  total: 0,
  limit: p.limit,
  offset: p.offset,
  result_count: 0,
  error,
  retrieval_note: '',
});

/** Only the values that are set (a switch left off sets no filter). */
const given = (values: Record<string, string | number | boolean | undefined>): FilterValues =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')) as FilterValues;

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
  const pref = prefectureParam(p.prefecture);
  if (pref.error) return failed(p, pref.error);
  const notRequired = (on: boolean | undefined) => (on ? 'not_required' : undefined);
  const filters = given({
    plan_type: 'loan',
    provider: p.provider,
    loan_kind: p.loan_kind,
    prefecture: pref.prefecture ?? undefined,
    collateral: notRequired(p.no_collateral),
    personal_guarantor: notRequired(p.no_personal_guarantor),
    third_party_guarantor: notRequired(p.no_third_party_guarantor),
    min_amount_yen: p.min_amount_yen,
    max_amount_yen: p.max_amount_yen,
  });
  return page(
    db,
    p.name_query,
    filters,
    p,
    'the three risk axes (collateral, personal and third-party guarantor) are published for 2 JFC products only; the other loan records carry `unknown` and never pass a no_* switch',
  );
}

export function mutualPlans(
  db: CatalogDatabase,
  p: { name_query?: string; provider?: string; plan_kind?: string; tax_deduction_type?: string; limit: number; offset: number },
): LoanSearchResponse {
  if (p.plan_kind && !(PLAN_KINDS as readonly string[]).includes(p.plan_kind)) {
    return failed(p, amError('invalid_enum', 'unknown plan_kind', `plan_kind is one of ${PLAN_KINDS.join(', ')}`));
  }
  if (p.tax_deduction_type && !(TAX_DEDUCTION_TYPES as readonly string[]).includes(p.tax_deduction_type)) {
    return failed(p, amError('invalid_enum', 'unknown tax_deduction_type', `tax_deduction_type is one of ${TAX_DEDUCTION_TYPES.join(', ')}`));
  }
  const filters = given({ plan_type: 'mutual_aid', provider: p.provider, plan_kind: p.plan_kind, tax_deduction_type: p.tax_deduction_type });
  return page(
    db,
    p.name_query,
    filters,
    p,
    'plan_kind and tax_deduction_type are classified from the plan name at ingest (共済 names); premiums are not in the dataset',
  );
}
