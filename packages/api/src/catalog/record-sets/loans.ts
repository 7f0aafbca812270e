// Loans and mutual-aid plans: a projection of programs (plan_type loan or
// mutual_aid) plus two JFC loan products, the only records that state loan
// type, amount in yen, rate, term and the three risk axes.
import { Type } from 'typebox';
import { defineRecordSet, type Row } from './spec.ts';
import { opt, Str, Num, Int, Bool, TIER_ORDER_SQL, prefectureFilter } from './fields.ts';
import { Literals, Short } from './params.ts';
import { mutualPlanKind, PLAN_KINDS, TAX_DEDUCTION_TYPES } from './plan-kinds.ts';
import { likeContains } from '../text-query.ts';

const RISK_VALUES = ['required', 'not_required', 'negotiable', 'unknown'] as const;
const RiskAxis = opt(Literals(RISK_VALUES));
const RiskValue = Literals(RISK_VALUES, {
  description: '`required`, `not_required`, `negotiable`; `unknown` matches rows whose source does not state the axis',
});
const RISK_COLUMNS = ['collateral_required', 'personal_guarantor_required', 'third_party_guarantor_required'];

/**
 * Loan rates are per cent per year (1.5 = 1.5%), the unit of the JFC's own
 * rate tables and of most records. A record that writes a rate as a fraction
 * (0.041 for 4.1%: the upstream's detail example does) is read into per cent:
 * a rate below 0.1 is taken for a fraction, since no public loan in the data is
 * priced under 0.1% a year (the JFC's base rates run 1 to 5%). Zero stays zero
 * (an interest-free loan). The record's provenance names each value read so.
 */
export const RATE_FIELDS = ['interest_rate_base_annual', 'interest_rate_special_annual'] as const;
const FRACTION_BELOW = 0.1;

export function ratesInPercent(record: Row): Row {
  const provenance: Record<string, string> = {};
  for (const field of RATE_FIELDS) {
    const rate = record[field];
    if (typeof rate !== 'number' || rate <= 0 || rate >= FRACTION_BELOW) continue;
    const percent = Math.round(rate * 100 * 1e6) / 1e6;
    record[field] = percent;
    provenance[field] = `derived:rate-fraction-to-percent: the source gives ${rate}, a fraction; read as ${percent} (per cent)`;
  }
  if (Object.keys(provenance).length > 0) record.provenance = provenance;
  return record;
}

/** The largest amount in yen: amount_max_yen where stated, else amount_max_man_yen (万円). */
const AMOUNT_YEN = 'coalesce(r.amount_max_yen, r.amount_max_man_yen * 10000)';
const Yen = (description: string) => Type.Integer({ minimum: 0, maximum: 1e15, description });

export default defineRecordSet({
  name: 'loans',
  label: 'Loan',
  table: 'loans_mutual_aid',
  file: 'loans_mutual_aid',
  idField: 'name',
  schema: Type.Object({
    plan_type: Literals(['loan', 'mutual_aid']),
    unified_id: Str,
    loan_id: Int,
    name: Type.String({ minLength: 1 }),
    program_kind: Str,
    provider: Str,
    loan_type: Str,
    authority_level: Str,
    prefecture: Str,
    tier: Str,
    amount_max_man_yen: Num,
    amount_max_yen: Num,
    loan_period_years_max: Num,
    grace_period_years_max: Num,
    interest_rate_base_annual: Num,
    interest_rate_special_annual: Num,
    rate_names: Str,
    collateral_required: RiskAxis,
    personal_guarantor_required: RiskAxis,
    third_party_guarantor_required: RiskAxis,
    source_url: Str,
    source_fetched_at: Str,
    in_public_index: Bool,
    record_origin: Str,
  }),
  check: (r) => (r.unified_id || typeof r.loan_id === 'number' ? null : 'record: neither unified_id nor loan_id'),
  columns: {
    plan_type: 'text',
    unified_id: 'text',
    loan_id: 'int',
    name: 'text',
    program_kind: 'text',
    provider: 'text',
    loan_type: 'text',
    authority_level: 'text',
    prefecture: 'text',
    tier: 'text',
    amount_max_man_yen: 'real',
    amount_max_yen: 'real',
    loan_period_years_max: 'real',
    grace_period_years_max: 'real',
    interest_rate_base_annual: 'real',
    interest_rate_special_annual: 'real',
    rate_names: 'text',
    collateral_required: 'text',
    personal_guarantor_required: 'text',
    third_party_guarantor_required: 'text',
    source_url: 'text',
    source_fetched_at: 'text',
    in_public_index: 'bool',
    record_origin: 'text',
  },
  // The dataset has no single id: programs carry unified_id, the JFC products loan_id.
  // A mutual-aid plan's kind and tax treatment are classified from its name (plan-kinds.ts).
  normalise: ratesInPercent,
  derived: {
    id: { kind: 'text', value: (r) => (r.unified_id as string | null) ?? String(r.loan_id) },
    // Which values were read into the set's unit, and from what (ratesInPercent); null when none was.
    provenance: { kind: 'json', value: (r) => r.provenance ?? null },
    plan_kind: { kind: 'text', value: (r) => (r.plan_type === 'mutual_aid' ? mutualPlanKind(r.name as string).plan_kind : null) },
    tax_deduction_type: { kind: 'text', value: (r) => (r.plan_type === 'mutual_aid' ? mutualPlanKind(r.name as string).tax_deduction_type : null) },
  },
  unique: ['id'],
  indexes: ['plan_type', 'prefecture', 'unified_id', 'plan_kind'],
  searchable: {
    name: { weight: 10, short: true },
    other: { weight: 1, from: ['provider', 'loan_type', 'rate_names', 'program_kind'], short: true },
  },

  row: {
    $id: 'Loan',
    description:
      'Loan or mutual-aid plan. `id` is the unified_id, or the JFC loan_id for the two JFC products; risk axes the source does not state read `unknown`; ' +
      'plan_kind and tax_deduction_type (mutual-aid plans only) are classified from the plan name. Units: interest_rate_*_annual per cent per year (1.5 = 1.5%; ' +
      'a source rate written as a fraction is read into per cent and named in `provenance`), amount_max_yen yen, amount_max_man_yen 万円 (10,000 yen), loan and grace periods years.',
  },
  // A risk axis the source does not state reads `unknown`.
  shape: (r: Row) => {
    for (const column of RISK_COLUMNS) r[column] ??= 'unknown';
    return r;
  },
  search: {
    operationId: 'searchLoans',
    summary: 'Search loans and mutual-aid plans by free text, plan type and risk axes',
    responseId: 'LoanSearchResponse',
    filters: [
      { name: 'collateral', aliases: ['collateral_required'], type: RiskValue, sql: "coalesce(r.collateral_required, 'unknown') = ?" },
      { name: 'personal_guarantor', aliases: ['personal_guarantor_required'], type: RiskValue, sql: "coalesce(r.personal_guarantor_required, 'unknown') = ?" },
      {
        name: 'third_party_guarantor',
        aliases: ['third_party_guarantor_required'],
        type: RiskValue,
        sql: "coalesce(r.third_party_guarantor_required, 'unknown') = ?",
      },
      { name: 'plan_type', type: Literals(['loan', 'mutual_aid']), sql: 'r.plan_type = ?' },
      prefectureFilter(),
      {
        name: 'provider',
        type: Short('Lender (substring)'),
        sql: "r.provider LIKE ? ESCAPE '\\'",
        bind: likeContains,
      },
      {
        name: 'loan_type',
        type: Short('Exact loan type'),
        sql: 'r.loan_type = ?',
      },
      {
        name: 'loan_kind',
        type: Short('loan_type or program_kind equals this (e.g. loan, special_rate, 国民生活事業)'),
        sql: '(r.loan_type = ? OR r.program_kind = ?)',
      },
      {
        name: 'plan_kind',
        type: Literals(PLAN_KINDS, { description: 'Kind of mutual-aid plan, classified from its name; loans never match' }),
        sql: 'r.plan_kind = ?',
      },
      {
        name: 'tax_deduction_type',
        type: Literals(TAX_DEDUCTION_TYPES, { description: "Tax treatment of a mutual-aid plan's premium, classified from its name; loans never match" }),
        sql: 'r.tax_deduction_type = ?',
      },
      {
        name: 'min_amount_yen',
        type: Yen('Largest amount at least this, yen'),
        sql: `${AMOUNT_YEN} >= ?`,
      },
      { name: 'max_amount_yen', type: Yen('Largest amount at most this, yen'), sql: `${AMOUNT_YEN} <= ?` },
      {
        name: 'max_interest_rate',
        type: Type.Number({
          minimum: 0,
          maximum: 100,
          description: 'Base annual rate at most this, percent',
        }),
        sql: 'r.interest_rate_base_annual <= ?',
      },
      {
        name: 'min_loan_period_years',
        type: Type.Integer({
          minimum: 0,
          maximum: 100,
          description: 'Longest term at least this, years',
        }),
        sql: 'r.loan_period_years_max >= ?',
      },
    ],
    ranges: [['min_amount_yen', 'max_amount_yen']],
    order: `r.loan_id IS NULL, ${TIER_ORDER_SQL}, r.name, r.id`,
  },
  detail: {
    operationId: 'getLoan',
    summary: 'One loan or mutual-aid plan by id (unified_id, or loan_id of a JFC product; LOAN-<loan_id> is accepted as an alias)',
    keys: ['id'],
    // /v1/am/loans published the JFC products as LOAN-<loan_id> before the ids were one (docs/decisions/0220-one-id-per-record.md).
    alias: (id) => /^LOAN-(\d+)$/i.exec(id)?.[1] ?? null,
  },
  tools: {
    search: {
      name: 'search_loan_programs',
      title: 'Search loan products',
      description:
        'Loan products by keywords, lender, collateral and guarantor requirements, amount, rate and term. Use for financing options. Only two JFC products state type, rate and term; other loans match a risk filter only as unknown.',
      q: 'loan names',
      noun: 'loans',
      params: {
        provider: 'provider',
        loan_type: 'loan_type',
        collateral_required: { filter: 'collateral_required', description: 'Collateral requirement' },
        personal_guarantor_required: { filter: 'personal_guarantor_required', description: 'Personal guarantor requirement' },
        third_party_guarantor_required: { filter: 'third_party_guarantor_required', description: 'Third-party guarantor requirement' },
        min_amount_yen: 'min_amount_yen',
        max_amount_yen: 'max_amount_yen',
        max_interest_rate: 'max_interest_rate',
        min_loan_period_years: 'min_loan_period_years',
      },
      fixed: { plan_type: 'loan' },
    },
    get: {
      name: 'get_loan_program',
      title: 'Get one loan product',
      description: 'One loan product by its id (from search_loan_programs).',
      id: { name: 'loan_id', description: 'Loan id (from search_loan_programs)', numeric: true },
    },
  },
});
