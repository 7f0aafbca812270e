// The related record sets (laws, articles, enforcement, case studies, tax
// rulesets, loans, certifications, municipalities, enums): one typed table
// each, columns named as the dataset's fields (see typed-records.ts).
import { Type, type TSchema } from 'typebox';
import { typedRecordsLoader } from './typed-records.ts';
import { HOUJIN_BANGOU_PATTERN, isValidHoujinBangou } from '../houjin.ts';

const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Str = opt(Type.String());
// ISO 8601 date, or a date-time as published (one law's last_amended_on carries a time).
const DateStr = opt(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})?)?$' }));
const Num = opt(Type.Number());
const Int = opt(Type.Integer());
const Bool = opt(Type.Boolean());
const StrList = opt(Type.Array(Type.String()));
const Houjin = opt(Type.String({ pattern: HOUJIN_BANGOU_PATTERN }));
const Id = Type.String({ minLength: 1, maxLength: 200 });

const checkHoujin = (field: string) => (r: Record<string, unknown>): string | null => {
  const v = r[field];
  return typeof v === 'string' && !isValidHoujinBangou(v) ? `field ${field}: check digit does not match` : null;
};

export const lawsLoader = typedRecordsLoader({
  table: 'laws',
  file: 'laws',
  idField: 'law_slug',
  schema: Type.Object({
    law_slug: opt(Type.String({ minLength: 1 })),
    law_id: opt(Type.String({ pattern: '^LAW-[0-9a-f]+$' })),
    law_id_candidates: StrList,
    title: Type.String({ minLength: 1 }),
    law_number: Str,
    enforced_on: DateStr,
    last_amended_on: DateStr,
    ministry_code: Str,
    category: Str,
    egov_law_id: Str,
    status: Str,
    source_url: Str,
    source_fetched_at: Str,
    articles_on_page: Int,
    articles_truncated: Bool,
    article_count_estimate: Int,
    articles_included: Bool,
    related_program_count: Int,
  }),
  columns: {
    law_slug: 'text', law_id: 'text', law_id_candidates: 'json', title: 'text', law_number: 'text',
    enforced_on: 'text', last_amended_on: 'text', ministry_code: 'text', category: 'text', egov_law_id: 'text',
    status: 'text', source_url: 'text', source_fetched_at: 'text', articles_on_page: 'int',
    articles_truncated: 'bool', article_count_estimate: 'int', articles_included: 'bool', related_program_count: 'int',
  },
  // law_id repeats (14 ids name two pages each); law_slug is unique where present.
  unique: ['law_slug'],
  indexes: ['law_id', 'egov_law_id', 'status', 'ministry_code', 'category', 'title'],
  fts: { columns: ['title', 'law_number'], text: (r) => [r.title as string, r.law_number as string] },
});

export const lawArticlesLoader = typedRecordsLoader({
  table: 'law_articles',
  file: 'law_articles',
  schema: Type.Object({
    law_slug: Type.String({ minLength: 1 }),
    law_id: Str,
    egov_law_id: Str,
    article_key: Type.String({ minLength: 1 }),
    article_label: Type.String(),
    seq: Type.Integer({ minimum: 0 }),
    caption: Str,
    is_supplementary: Type.Boolean(),
    text: Type.String(),
  }),
  columns: {
    law_slug: 'text', law_id: 'text', egov_law_id: 'text', article_key: 'text', article_label: 'text',
    seq: 'int', caption: 'text', is_supplementary: 'bool', text: 'text',
  },
  // The dataset's unique key; article_key repeats on a few pages (source quirk).
  unique: ['law_slug, seq'],
  indexes: ['law_slug, article_key', 'law_id', 'law_slug, article_label'],
  check: (r) => (r.law_slug ? null : 'field law_slug: missing'),
});

export const enforcementLoader = typedRecordsLoader({
  table: 'enforcement',
  file: 'enforcement',
  idField: 'enforcement_id',
  schema: Type.Object({
    enforcement_id: Id,
    source_family: Type.String({ minLength: 1 }),
    title: Type.String(),
    target_name: Str,
    target_name_suppressed: Bool,
    houjin_bangou: Houjin,
    action_type: Str,
    authority: Str,
    bureau: Str,
    prefecture: Str,
    action_date: DateStr,
    program_name_at_publication: Str,
    amount_yen: Num,
    project_cost_yen: Num,
    granted_amount_yen: Num,
    improper_amount_yen: Num,
    exclusion_start: DateStr,
    exclusion_end: DateStr,
    related_law_text: Str,
    related_laws: opt(Type.Array(Type.Object({}))),
    related_programs_auto: opt(Type.Array(Type.Object({}))),
    reason_excerpt: Str,
    reason_excerpt_withheld: Bool,
    source_url: Type.String(),
    source_fetched_at: Str,
    _source: Str,
  }),
  check: checkHoujin('houjin_bangou'),
  columns: {
    enforcement_id: 'text', source_family: 'text', title: 'text', target_name: 'text', target_name_suppressed: 'bool',
    houjin_bangou: 'text', action_type: 'text', authority: 'text', bureau: 'text', prefecture: 'text',
    action_date: 'text', program_name_at_publication: 'text', amount_yen: 'real', project_cost_yen: 'real',
    granted_amount_yen: 'real', improper_amount_yen: 'real', exclusion_start: 'text', exclusion_end: 'text',
    related_law_text: 'text', related_laws: 'json', related_programs_auto: 'json', reason_excerpt: 'text',
    reason_excerpt_withheld: 'bool', source_url: 'text', source_fetched_at: 'text', _source: 'text',
  },
  unique: ['enforcement_id'],
  indexes: ['action_date', 'houjin_bangou', 'authority', 'source_family', 'prefecture', 'exclusion_end'],
  fts: {
    columns: ['title', 'target_name', 'authority', 'other'],
    text: (r) => [
      r.title as string, r.target_name as string,
      [r.authority, r.bureau, r.action_type].filter(Boolean).join(' '),
      [r.program_name_at_publication, r.related_law_text, r.reason_excerpt].filter(Boolean).join(' '),
    ],
  },
});

export const caseStudiesLoader = typedRecordsLoader({
  table: 'case_studies',
  file: 'case_studies',
  idField: 'case_id',
  schema: Type.Object({
    case_id: Id,
    title: Type.String(),
    company_name: Str,
    houjin_bangou: Houjin,
    houjin_bangou_invalid_as_published: Str,
    prefecture: Str,
    industry_name: Str,
    jsic_code: Str,
    employees: Int,
    founded_year: Int,
    capital_man_yen: Num,
    capital_text: Str,
    published_date: DateStr,
    pattern_tags: StrList,
    source_url: Type.String(),
    source_fetched_at: Str,
    _source: Str,
  }),
  check: checkHoujin('houjin_bangou'),
  columns: {
    case_id: 'text', title: 'text', company_name: 'text', houjin_bangou: 'text',
    houjin_bangou_invalid_as_published: 'text', prefecture: 'text', industry_name: 'text', jsic_code: 'text',
    employees: 'int', founded_year: 'int', capital_man_yen: 'real', capital_text: 'text', published_date: 'text',
    pattern_tags: 'json', source_url: 'text', source_fetched_at: 'text', _source: 'text',
  },
  unique: ['case_id'],
  indexes: ['prefecture', 'jsic_code', 'houjin_bangou', 'published_date'],
  fts: {
    columns: ['title', 'company_name', 'other'],
    text: (r) => [
      r.title as string, r.company_name as string,
      [r.industry_name, ...((r.pattern_tags as string[] | null) ?? [])].filter(Boolean).join(' '),
    ],
  },
});

export const taxRulesetsLoader = typedRecordsLoader({
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
  }),
  columns: {
    unified_id: 'text', ruleset_name: 'text', tax_category: 'text', ruleset_kind: 'text', effective_from: 'text',
    effective_until: 'text', legal_basis: 'json', eligibility_conditions_json: 'json', rate_or_amount: 'text',
    calculation_formula: 'text', authority: 'text', authority_url: 'text', source_url: 'text', confidence: 'real',
    needs_verification: 'bool', _source: 'text',
  },
  unique: ['unified_id'],
  indexes: ['tax_category', 'ruleset_kind', 'effective_from'],
  fts: {
    columns: ['ruleset_name', 'other'],
    text: (r) => [
      r.ruleset_name as string,
      [
        ...((r.legal_basis as string[] | null) ?? []), r.rate_or_amount, r.calculation_formula, r.authority,
        conditionWords(r.eligibility_conditions_json),
      ].filter(Boolean).join(' '),
    ],
  },
});

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

const RiskAxis = opt(Type.Union([
  Type.Literal('required'), Type.Literal('not_required'), Type.Literal('negotiable'), Type.Literal('unknown'),
]));

export const loansLoader = typedRecordsLoader({
  table: 'loans_mutual_aid',
  file: 'loans_mutual_aid',
  idField: 'name',
  schema: Type.Object({
    plan_type: Type.Union([Type.Literal('loan'), Type.Literal('mutual_aid')]),
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
    plan_type: 'text', unified_id: 'text', loan_id: 'int', name: 'text', program_kind: 'text', provider: 'text',
    loan_type: 'text', authority_level: 'text', prefecture: 'text', tier: 'text', amount_max_man_yen: 'real',
    amount_max_yen: 'real', loan_period_years_max: 'real', grace_period_years_max: 'real',
    interest_rate_base_annual: 'real', interest_rate_special_annual: 'real', rate_names: 'text',
    collateral_required: 'text', personal_guarantor_required: 'text', third_party_guarantor_required: 'text',
    source_url: 'text', source_fetched_at: 'text', in_public_index: 'bool', record_origin: 'text',
  },
  // The dataset has no single id: programs carry unified_id, the JFC products loan_id.
  derived: { id: { kind: 'text', value: (r) => (r.unified_id as string | null) ?? String(r.loan_id) } },
  unique: ['id'],
  indexes: ['plan_type', 'prefecture', 'unified_id'],
  fts: {
    columns: ['name', 'other'],
    text: (r) => [r.name as string, [r.provider, r.loan_type, r.rate_names, r.program_kind].filter(Boolean).join(' ')],
  },
});

export const certificationsLoader = typedRecordsLoader({
  table: 'certifications',
  file: 'certifications',
  idField: 'unified_id',
  schema: Type.Object({
    unified_id: Id,
    name: Type.String({ minLength: 1 }),
    program_kind: Str,
    provider: Str,
    authority_level: Str,
    prefecture: Str,
    tier: Str,
    amount_max_man_yen: Num,
    source_url: Str,
    source_fetched_at: Str,
    in_public_index: Bool,
    record_origin: Str,
  }),
  columns: {
    unified_id: 'text', name: 'text', program_kind: 'text', provider: 'text', authority_level: 'text',
    prefecture: 'text', tier: 'text', amount_max_man_yen: 'real', source_url: 'text', source_fetched_at: 'text',
    in_public_index: 'bool', record_origin: 'text',
  },
  unique: ['unified_id'],
  indexes: ['prefecture'],
  fts: { columns: ['name', 'other'], text: (r) => [r.name as string, [r.provider, r.program_kind].filter(Boolean).join(' ')] },
});

export const municipalitiesLoader = typedRecordsLoader({
  table: 'municipalities',
  file: 'municipalities',
  idField: 'municipality_code',
  schema: Type.Object({
    municipality_code: Type.String({ pattern: '^[0-9]{5,6}$' }),
    name: Type.String({ minLength: 1 }),
    prefecture: Type.String({ minLength: 1 }),
    prefecture_code: Str,
    municipality_type: Str,
  }),
  columns: { municipality_code: 'text', name: 'text', prefecture: 'text', prefecture_code: 'text', municipality_type: 'text' },
  unique: ['municipality_code'],
  indexes: ['name', 'prefecture'],
});

export const enumsLoader = typedRecordsLoader({
  table: 'enums',
  file: 'enums',
  idField: 'value',
  schema: Type.Object({
    enum: Type.String({ minLength: 1 }),
    value: Type.String(),
    label_ja: Str,
    count: Int,
    source: Str,
  }),
  columns: { enum: 'text', value: 'text', label_ja: 'text', count: 'int', source: 'text' },
  unique: ['enum, value'],
});
