// TypeBox schemas of the related record sets (loans, tax rulesets,
// enforcement, laws, case studies, certifications). Their row fields are "not
// shown" by the contract beyond a few names; rows carry the dataset's fields
// (declared here from the catalogue's column kinds) and allow additions.
import { Type, type TSchema, type TProperties } from 'typebox';
import { Nullable, Attribution, Limit, Offset } from './common.ts';
import { TABLE_COLUMNS, type ColumnKind } from '../catalog/loaders/typed-records.ts';
import '../catalog/loaders/index.ts';
import { HOUJIN_BANGOU_PATTERN } from '../catalog/houjin.ts';

const KIND_SCHEMA: Record<ColumnKind, () => TSchema> = {
  text: () => Nullable(Type.String()),
  int: () => Nullable(Type.Integer()),
  real: () => Nullable(Type.Number()),
  bool: () => Nullable(Type.Boolean()),
  json: () => Type.Unknown(),
};

/** A row schema: every column of the table (row_id excepted) plus `extra`. */
export function rowSchema(table: string, id: string, extra: Record<string, TSchema> = {}, description?: string) {
  const kinds = TABLE_COLUMNS.get(table) ?? {};
  const properties: Record<string, TSchema> = {};
  for (const [name, kind] of Object.entries(kinds)) properties[name] = KIND_SCHEMA[kind]();
  return Type.Object({ ...properties, ...extra }, { $id: id, additionalProperties: true, description });
}

export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
export const DateParam = (description: string) => Type.String({ pattern: DATE_PATTERN, description: `${description} (YYYY-MM-DD)` });
export const HoujinParam = Type.String({ pattern: HOUJIN_BANGOU_PATTERN, description: '13-digit corporate number (法人番号)' });
export const Q = Type.String({
  maxLength: 500,
  description: 'Free text; terms of 3+ characters use the trigram index, shorter ones a substring match.',
});
const Short = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

/** Query schema of a record-set search: q, the given filters, limit and offset. */
export const searchQuery = <F extends TProperties>(filters: F) =>
  Type.Object(
    {
      q: Type.Optional(Q),
      ...filters,
      limit: Type.Optional(Limit(100, 20)),
      offset: Type.Optional(Offset),
    },
    { additionalProperties: false },
  );

/** The shared envelope: total, limit, offset, results, attribution. */
export const searchResponse = (row: TSchema, id: string) =>
  Type.Object(
    { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), results: Type.Array(row), attribution: Attribution },
    { $id: id },
  );

export const IdParams = (name = 'id') => Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200 }) });

// ---------------------------------------------------------------- loans

export const RiskValue = Type.Union(
  [Type.Literal('required'), Type.Literal('not_required'), Type.Literal('negotiable'), Type.Literal('unknown')],
  { description: '`required`, `not_required`, `negotiable`; `unknown` matches rows whose source does not state the axis' },
);

export const Loan = rowSchema('loans_mutual_aid', 'Loan', {}, 'Loan or mutual-aid plan. `id` is the unified_id, or the JFC loan_id for the two JFC products; risk axes the source does not state read `unknown`.');
export const LoanSearchQuery = searchQuery({
  collateral: Type.Optional(RiskValue),
  personal_guarantor: Type.Optional(RiskValue),
  third_party_guarantor: Type.Optional(RiskValue),
  plan_type: Type.Optional(Type.Union([Type.Literal('loan'), Type.Literal('mutual_aid')])),
  prefecture: Type.Optional(Short('Exact prefecture name')),
});
export const LoanSearchResponse = searchResponse(Loan, 'LoanSearchResponse');

// ---------------------------------------------------------------- tax rulesets

export const TaxRuleset = rowSchema('tax_rulesets', 'TaxRuleset', {
  rule_name: Type.String({ description: '= ruleset_name' }),
  effective_to: Nullable(Type.String({ description: '= effective_until; null when open-ended' })),
  sunset_date: Nullable(Type.String({ description: 'last day the measure applies (= effective_until); null when no sunset is known' })),
});
export const TaxSearchQuery = searchQuery({
  effective_on: Type.Optional(DateParam('In force on this day: effective_from <= day <= effective_until (open ends match)')),
  tax_category: Type.Optional(Short('consumption, corporate, income')),
  ruleset_kind: Type.Optional(Short('credit, deduction, exemption, preservation, registration, special_depreciation, other')),
});
export const TaxSearchResponse = searchResponse(TaxRuleset, 'TaxRulesetSearchResponse');

// ---------------------------------------------------------------- enforcement

export const Enforcement = rowSchema('enforcement', 'EnforcementRecord');
export const EnforcementSearchQuery = searchQuery({
  authority: Type.Optional(Short('Substring of the authority or bureau (e.g. 金融庁, 労働局)')),
  decided_from: Type.Optional(DateParam('action_date on or after')),
  decided_to: Type.Optional(DateParam('action_date on or before')),
  houjin_bangou: Type.Optional(HoujinParam),
  source_family: Type.Optional(Short('jbaudit, mhlw_fraud, corporate_action')),
  prefecture: Type.Optional(Short('Exact prefecture name')),
});
export const EnforcementSearchResponse = searchResponse(Enforcement, 'EnforcementSearchResponse');

// ---------------------------------------------------------------- laws

export const Law = rowSchema('laws', 'Law');
export const LawDetail = rowSchema('laws', 'LawDetail', {
  article_count: Type.Integer({ description: 'articles whose text this service holds' }),
  article_text_available: Type.Boolean(),
  attribution: Attribution,
});
export const LawSearchQuery = searchQuery({
  status: Type.Optional(Short('active, repealed, superseded')),
  ministry_code: Type.Optional(Short('e.g. mhlw, meti, mof-nta')),
  category: Type.Optional(Short('e.g. 税制, 労働')),
});
export const LawSearchResponse = searchResponse(Law, 'LawSearchResponse');
export const LawArticle = rowSchema('law_articles', 'LawArticle');
export const LawArticleDetail = rowSchema('law_articles', 'LawArticleDetail', {
  law_title: Type.String(),
  source_url: Nullable(Type.String({ description: 'e-Gov page of the law' })),
  attribution: Attribution,
});
export const ArticlesQuery = Type.Object(
  {
    supplementary: Type.Optional(Type.Boolean({ description: 'true: only 附則 articles; false: only the main provisions' })),
    limit: Type.Optional(Limit(100, 20)),
    offset: Type.Optional(Offset),
  },
  { additionalProperties: false },
);
export const ArticlesResponse = searchResponse(LawArticle, 'LawArticlesResponse');

// ---------------------------------------------------------------- case studies

export const CaseStudy = rowSchema('case_studies', 'CaseStudy');
export const CaseSearchQuery = searchQuery({
  prefecture: Type.Optional(Short('Exact prefecture name')),
  jsic_code: Type.Optional(Type.String({ pattern: '^[A-Za-z][0-9]{0,3}$', description: 'JSIC code: a major letter (E) matches its divisions (E09)' })),
  industry: Type.Optional(Short('Substring of industry_name')),
  houjin_bangou: Type.Optional(HoujinParam),
  pattern_tag: Type.Optional(Short('e.g. DX/デジタル化')),
  employees_min: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
  employees_max: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
});
export const CaseSearchResponse = searchResponse(CaseStudy, 'CaseStudySearchResponse');

// ---------------------------------------------------------------- certifications

export const Certification = rowSchema('certifications', 'Certification');
export const CertificationSearchQuery = searchQuery({
  prefecture: Type.Optional(Short('Exact prefecture name')),
  authority_level: Type.Optional(Type.Union([Type.Literal('national'), Type.Literal('prefecture'), Type.Literal('municipality'), Type.Literal('financial')])),
  tier: Type.Optional(Type.Union([Type.Literal('S'), Type.Literal('A'), Type.Literal('B'), Type.Literal('C'), Type.Literal('X')])),
});
export const CertificationSearchResponse = searchResponse(Certification, 'CertificationSearchResponse');

/** Attribution of every law response: e-Gov statute data under CC BY 4.0. */
export const EGOV_ATTRIBUTION = Object.freeze({
  source: 'デジタル庁 e-Gov 法令データ提供システム',
  source_url: 'https://laws.e-gov.go.jp/',
  license: 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)',
  edited: true,
  notice:
    '出典: デジタル庁 e-Gov 法令データ提供システム (CC BY 4.0). Article text is whitespace-normalised; ' +
    'metadata (ids, categories, status) is compiled by this service. Verify against e-Gov before relying on it.',
});
