// Tax rulesets: the invoice system, e-bookkeeping and SME tax incentives, each
// with its legal basis and, where held, a machine-readable eligibility
// predicate; plus reviewed additions (data/overrides/tax-rulesets.jsonl) for
// flagship SME measures the upstream rulesets lack, with the requirements
// their sources state and what is not held.
import path from 'node:path';
import { Type } from 'typebox';
import { defineRecordSet, joinFields, type Row } from './spec.ts';
import { opt, Str, DateStr, Bool, StrList } from './fields.ts';
import { DateParam, Nullable, Short } from './params.ts';
import { likeContains } from '../text-query.ts';

/** The field names and string values of an upstream condition predicate, as searchable words. */
function conditionWords(condition: unknown): string {
  const words: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'field' && typeof value === 'string') words.push(value.replace(/_/g, ' '));
        else if (key !== 'op') walk(value);
      }
    } else if (typeof node === 'string') words.push(node.replace(/_/g, ' '));
  };
  walk(condition);
  return words.join(' ');
}

/** The reviewed additions: flagship SME measures the catalogue holds as programmes but the upstream rulesets do not. */
const REVIEWED_ADDITIONS = path.join(import.meta.dirname, '..', '..', '..', '..', '..', 'data', 'overrides', 'tax-rulesets.jsonl');

/**
 * `predicate`: the requirements are held as a machine-readable predicate
 * (evaluate_tax_applicability decides on it); `listed`: some are listed with
 * their sources, the rest are not held (requirements_note says which);
 * `not_held`: none is held, read them at source_url.
 */
export function requirementsStatus(r: Row): 'predicate' | 'listed' | 'not_held' {
  if (r.eligibility_conditions_json && typeof r.eligibility_conditions_json === 'object') return 'predicate';
  return Array.isArray(r.requirements) && r.requirements.length > 0 ? 'listed' : 'not_held';
}

export default defineRecordSet({
  name: 'tax_rulesets',
  label: 'Tax ruleset',
  table: 'tax_rulesets',
  file: 'tax_rulesets',
  idField: 'unified_id',
  schema: Type.Object({
    unified_id: Type.String({ pattern: '^TAX-[0-9a-f]+$' }),
    ruleset_name: Type.String({ minLength: 1 }),
    tax_category: Type.String({ minLength: 1 }),
    ruleset_kind: Type.String({ minLength: 1 }),
    effective_from: DateStr,
    effective_until: DateStr,
    legal_basis: StrList,
    eligibility_conditions_json: opt(Type.Object({})),
    rate_or_amount: Str,
    calculation_formula: Str,
    authority: Str,
    authority_url: Str,
    source_url: Type.String(),
    confidence: opt(Type.Number({ minimum: 0, maximum: 1 })),
    needs_verification: Bool,
    _source: Str,
    // Reviewed additions only (data/overrides/tax-rulesets.jsonl): the requirements a cited source states, what is not held, why added.
    requirements: opt(Type.Array(Type.Object({ requirement: Type.String({ minLength: 1 }), source: Type.String({ minLength: 1 }) }))),
    requirements_note: Str,
    review: opt(
      Type.Object({
        reason: Type.String({ minLength: 1 }),
        sources: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
        programmes: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  }),
  reviewed: REVIEWED_ADDITIONS,
  columns: {
    unified_id: 'text',
    ruleset_name: 'text',
    tax_category: 'text',
    ruleset_kind: 'text',
    effective_from: 'text',
    effective_until: 'text',
    legal_basis: 'json',
    eligibility_conditions_json: 'json',
    rate_or_amount: 'text',
    calculation_formula: 'text',
    authority: 'text',
    authority_url: 'text',
    source_url: 'text',
    confidence: 'real',
    needs_verification: 'bool',
    _source: 'text',
    requirements: 'json',
    requirements_note: 'text',
    review: 'json',
  },
  derived: {
    // What an agent can quote of a ruleset's requirements (decision 0398).
    requirements_status: { kind: 'text', value: requirementsStatus },
  },
  unique: ['unified_id'],
  indexes: ['tax_category', 'ruleset_kind', 'effective_from'],
  searchable: {
    ruleset_name: { weight: 10, short: true },
    other: {
      weight: 2,
      short: true,
      text: (r) =>
        [joinFields(r, ['legal_basis', 'rate_or_amount', 'calculation_formula', 'authority']), conditionWords(r.eligibility_conditions_json)]
          .filter(Boolean)
          .join(' '),
    },
  },

  row: {
    $id: 'TaxRuleset',
    extra: {
      rule_name: Type.String({ description: '= ruleset_name' }),
      effective_to: Nullable(Type.String({ description: '= effective_until; null when open-ended' })),
      sunset_date: Nullable(Type.String({ description: 'last day the measure applies (= effective_until); null when no sunset is known' })),
    },
  },
  // The contract's names beside the dataset's.
  shape: (r: Row) => ({ ...r, rule_name: r.ruleset_name, effective_to: r.effective_until, sunset_date: r.effective_until }),
  search: {
    operationId: 'searchTaxRulesets',
    summary: 'Search tax rulesets by free text, date in force, category and kind',
    responseId: 'TaxRulesetSearchResponse',
    filters: [
      {
        name: 'effective_on',
        type: DateParam('In force on this day: effective_from <= day <= effective_until (open ends match)'),
        sql: '(r.effective_from IS NULL OR r.effective_from <= ?) AND (r.effective_until IS NULL OR r.effective_until >= ?)',
      },
      { name: 'tax_category', type: Short('consumption, corporate, income, gift, inheritance'), sql: 'r.tax_category = ?' },
      {
        name: 'ruleset_kind',
        type: Short('credit, deduction, exemption, deferral, preservation, registration, special_depreciation, other'),
        sql: 'r.ruleset_kind = ?',
      },
      {
        name: 'authority',
        type: Short('Substring of the administering authority (e.g. 国税庁, 中小企業庁); records without one never match'),
        sql: "r.authority LIKE ? ESCAPE '\\'",
        bind: likeContains,
      },
    ],
    order: 'r.effective_from DESC, r.unified_id',
    // The invoice system is written インボイス, 適格請求書 or (in the upstream
    // condition fields) invoice, and its rules speak of 登録番号 and 免税事業者;
    // e-bookkeeping is 電帳法 or 電子帳簿 (保存法), its rules 電子取引 and 電磁的記録;
    // wage-raise measures say 給与等支給額. (/v1/am/tax_rule reads the set by this search.)
    synonyms: {
      インボイス: ['適格請求書', '適格簡易請求書', '登録番号', '免税事業者', 'invoice'],
      適格請求書: ['インボイス', 'invoice'],
      invoice: ['インボイス', '適格請求書'],
      電子帳簿: ['電帳法', '電子帳簿保存'],
      電帳法: ['電子帳簿', '電子取引', '電磁的記録'],
      電子帳簿保存法: ['電子帳簿', '電子取引', '電磁的記録'],
      賃上げ: ['給与等支給額'],
      '2割特例': ['小規模事業者に係る税額控除'],
    },
  },
  detail: {
    operationId: 'getTaxRuleset',
    summary: 'One tax ruleset by unified_id (TAX-…)',
    keys: ['unified_id'],
  },
  tools: {
    search: {
      name: 'search_tax_rules',
      title: 'Search tax rulesets',
      description:
        "Tax rulesets (invoice system, e-bookkeeping, credits, deductions, special depreciation) by keywords, tax category, kind and the date in force. Use to find a measure to cite. Not for a profile's eligibility (evaluate_tax_applicability).",
      q: 'ruleset names and legal bases',
      noun: 'rulesets',
      params: {
        tax_category: { filter: 'tax_category', description: 'Tax category', values: ['consumption', 'corporate', 'income', 'gift', 'inheritance'] },
        ruleset_kind: {
          filter: 'ruleset_kind',
          description: 'Kind of ruleset',
          values: ['registration', 'credit', 'deduction', 'special_depreciation', 'exemption', 'deferral', 'preservation', 'other'],
        },
        effective_on: { filter: 'effective_on', description: 'Keep rulesets in force on this date' },
      },
    },
    get: {
      name: 'get_tax_rule',
      title: 'Get one tax ruleset',
      description: 'One tax ruleset by its TAX- id, with its legal basis, eligibility predicate and requirements_status (predicate, listed, not_held).',
      id: { name: 'unified_id', description: 'Ruleset id, TAX- followed by 10 hex digits', pattern: '^TAX-[0-9a-f]{10}$', example: 'TAX-0123456789' },
    },
  },
});
