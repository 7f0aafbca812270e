// /v1/am/*: the entity-graph tools ("am": AutonoMath, see
// entity-graph/index.ts). Thin: schema-validated parameters, one call into
// entity-graph/, the tool's response object; what every route shares comes
// from amTool (tool.ts). Tool failures (unknown enum, unreadable date,
// unknown seed) come back as 200 with `error` set and empty results;
// parameters that fail the schema (wrong type, out of range, too long)
// answer 400 `{detail}` like every other route (docs/decisions/0058-am-tool-errors.md).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AmEnvelope,
  DateParam,
  EnforcementResponse,
  EnumResponse,
  IntentResponse,
  LawArticleResponse,
  ListParam,
  LoanResponse,
  ReasonResponse,
  RelatedResponse,
  Text,
  TotalResults,
  ValidateRequest,
  ValidateResponseSchema,
} from '../../../schemas/am.ts';
import {
  activeAt,
  annotations,
  byLaw,
  enforcementCheck,
  enums,
  gxPrograms,
  intent,
  lawArticleLookup,
  loans,
  mutualPlans,
  openPrograms,
  provenance,
  reason,
  related,
  taxRule,
  validate,
  ANNOTATION_KINDS,
  ANNOTATION_SEVERITIES,
  GX_THEMES,
  LOAN_KINDS,
  PERSONAS,
  PLAN_KINDS,
  RECORD_KINDS,
  RELATION_TYPES,
  TAX_DEDUCTION_TYPES,
  TAX_RULE_TYPES,
  TARGET_CODES,
  type ValidateResponse,
} from '../../../entity-graph/index.ts';
import { COMPANY_SIZES } from '@jp-support/vocab';
import { amQuery, amTool, paged, paging } from './tool.ts';
import { Lru } from '../../../lib/lru.ts';
/** The applicant filters of the program listings (entity-graph/applicant-filters.ts). */
const applicantQuery = {
  industry: Type.Optional(
    Text(
      'JSIC major industry: a letter A-T or an industry word (製造業, 農業, IT, restaurant). Only programs that list their industries (jsic_majors, 908 of 12,072) can match; an unreadable value answers 200 with error.code invalid_enum.',
      100,
    ),
  ),
  size: Type.Optional(
    Text(
      `Company size: ${COMPANY_SIZES.join(', ')}, or another spelling of them (individual, medium, mid, 中小企業, …). Matches programs whose published applicants (target_types, 687 of 12,072) admit that size, corporations in general included; programs publishing no applicants do not match.`,
      40,
    ),
  ),
  target: Type.Optional(
    Text(
      `Applicant kind: ${TARGET_CODES.join(', ')}, or a target type as published (see /v1/am/enums/target_type). Only programs that list their applicants (target_types) can match.`,
      100,
    ),
  ),
};
const EntityIdParam = Type.Object({
  entity_id: Type.String({ minLength: 1, maxLength: 200, description: 'Entity id: UNI-…, TAX-…, LAW-…, enforcement or case id, AUTH-…, HB-<13 digits>.' }),
});

/** Result cache of POST /v1/am/validate: in-process LRU (per replica), 2,000 entries, keyed by (applicant_hash, entity_id, scope, JST day). */
export const VALIDATE_CACHE_SIZE = 2000;

const amRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = () => app.catalog.db;
  // Answers depend on the catalogue: a new one (catalog/live.ts) starts an empty cache.
  let validateCache = { version: '', cache: new Lru<string, ValidateResponse>(VALIDATE_CACHE_SIZE) };
  const validateCacheNow = () => {
    if (validateCache.version !== app.catalog.version)
      validateCache = { version: app.catalog.version, cache: new Lru<string, ValidateResponse>(VALIDATE_CACHE_SIZE) };
    return validateCache.cache;
  };

  app.get(
    '/active_at',
    amTool(
      'amActiveAt',
      'Entities whose validity period covers a date (point-in-time view)',
      {
        querystring: amQuery({
          date: Type.Optional(DateParam('Snapshot date (default today, Japan time).')),
          kinds: Type.Optional(ListParam(`Record kinds (default program,certification,tax_measure); among ${RECORD_KINDS.join(', ')}.`)),
          prefecture: Type.Optional(Text('Prefecture (東京都, 東京, tokyo); nationwide rows are included.', 50)),
          query: Type.Optional(Text('Words that must all appear in the name or facts.')),
          ...applicantQuery,
          ...paging(20),
        }),
        response: AmEnvelope({ pivot_date: Type.Union([Type.String(), Type.Null()]) }),
      },
      (req) => activeAt(db(), paged(req.query)),
    ),
  );

  app.get(
    '/open_programs',
    amTool(
      'amOpenPrograms',
      'Programs whose application window is open on a date, with days remaining',
      {
        querystring: amQuery({
          pivot_date: Type.Optional(DateParam('Day to check (default today, Japan time).')),
          prefecture: Type.Optional(Text('Prefecture; nationwide programs are included.', 50)),
          query: Type.Optional(Text('Words that must all appear in the name or facts.')),
          tier: Type.Optional(ListParam('Tiers S, A, B, C, X.')),
          ...applicantQuery,
          ...paging(20),
        }),
        response: AmEnvelope({ pivot_date: Type.String() }),
      },
      (req) => openPrograms(db(), paged(req.query)),
    ),
  );

  app.get(
    '/annotations/:entity_id',
    amTool(
      'amAnnotations',
      'Examiner and quality notes derived from the data for one entity',
      {
        params: EntityIdParam,
        querystring: amQuery({
          kind: Type.Optional(Text(`Annotation kind: ${ANNOTATION_KINDS.join(', ')}.`, 40)),
          severity: Type.Optional(Text(`Severity: ${ANNOTATION_SEVERITIES.join(', ')}.`, 40)),
          ...paging(50),
        }),
        response: AmEnvelope({ entity_id: Type.String(), filters: Type.Object({}, { additionalProperties: true }) }),
      },
      (req) => annotations(db(), req.params.entity_id, paged(req.query)),
    ),
  );

  app.get(
    '/by_law',
    amTool(
      'amByLaw',
      'Programs, tax measures and enforcement records tied to a statute',
      {
        querystring: amQuery({
          law_name: Text('Formal title, short name (略称, e.g. 補助金適正化法), slug or LAW- id.'),
          article: Type.Optional(Text('Article (第17条, 17条の2); narrows tax measures by legal basis.', 40)),
          kinds: Type.Optional(ListParam('Record kinds of the linked rows.')),
          ...paging(20),
        }),
        response: AmEnvelope({ law_aliases_tried: Type.Array(Type.String()) }),
      },
      (req) => byLaw(db(), paged(req.query)),
    ),
  );

  app.get(
    '/provenance/:entity_id',
    amTool(
      'amProvenance',
      'Where each fact of an entity came from',
      {
        params: EntityIdParam,
        querystring: amQuery({ fact: Type.Optional(Text('Only this field (same as /provenance/{entity_id}/{field}).', 100)), ...paging(100) }),
        response: AmEnvelope(),
      },
      (req) => provenance(db(), req.params.entity_id, paged(req.query)),
    ),
  );

  app.get(
    '/provenance/:entity_id/:field',
    amTool(
      'amProvenanceForFact',
      'Where one fact of an entity came from',
      {
        params: Type.Object({ entity_id: EntityIdParam.properties.entity_id, field: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: amQuery(paging(100)),
        response: AmEnvelope(),
      },
      (req) => provenance(db(), req.params.entity_id, { ...paged(req.query), fact: req.params.field }),
    ),
  );

  const amountParam = (d: string) => Type.Integer({ minimum: 0, maximum: 1e13, description: d });
  const noneRequired = (what: string) => Type.Boolean({ default: false, description: `Only products stating no ${what}.` });
  app.get(
    '/loans',
    amTool(
      'amLoans',
      'Loan products with no-collateral / no-guarantor switches',
      {
        querystring: amQuery({
          name_query: Type.Optional(Text('Words of the loan (its name, lender, loan type), as q of GET /v1/loans/search.')),
          provider: Type.Optional(Text('Lender name contains.', 100)),
          loan_kind: Type.Optional(Text(`Loan type or program kind (e.g. loan, ${LOAN_KINDS.slice(0, 3).join(', ')}).`, 40)),
          prefecture: Type.Optional(Text('Prefecture.', 50)),
          no_collateral: Type.Optional(Type.Boolean({ default: false, description: 'Only products stating collateral not_required.' })),
          no_personal_guarantor: Type.Optional(noneRequired('personal guarantor')),
          no_third_party_guarantor: Type.Optional(noneRequired('third-party guarantor')),
          min_amount_yen: Type.Optional(amountParam('Upper amount at least (yen).')),
          max_amount_yen: Type.Optional(amountParam('Upper amount at most (yen).')),
          ...paging(10),
        }),
        response: LoanResponse,
      },
      (req) => loans(db(), paged(req.query)),
    ),
  );

  app.get(
    '/mutual_plans',
    amTool(
      'amMutualPlans',
      'Mutual-aid, pension and insurance plans',
      {
        querystring: amQuery({
          name_query: Type.Optional(Text('Words of the plan (its name, provider), as q of GET /v1/loans/search.')),
          provider: Type.Optional(Text('Provider name contains.', 100)),
          plan_kind: Type.Optional(Text(`One of ${PLAN_KINDS.join(', ')}.`, 40)),
          tax_deduction_type: Type.Optional(Text(`One of ${TAX_DEDUCTION_TYPES.join(', ')}.`, 40)),
          ...paging(10),
        }),
        response: LoanResponse,
      },
      (req) => mutualPlans(db(), paged(req.query)),
    ),
  );

  app.get(
    '/tax_rule',
    amTool(
      'amTaxRule',
      'Structured rules (rate, legal basis, validity) of a named tax measure',
      {
        querystring: amQuery({
          measure_name_or_id: Text('TAX- id or words of the measure (インボイス, 特別償却, 80%).'),
          rule_type: Type.Optional(Text(`One of ${TAX_RULE_TYPES.join(', ')}.`, 40)),
          as_of: Type.Optional(Text('Only measures in effect on this date (YYYY-MM-DD).', 20)),
          authority: Type.Optional(Text('Words of the issuing authority (国税庁, 中小企業庁, 経済産業省); measures of other authorities are left out.', 100)),
          limit: paging(20).limit,
        }),
        response: TotalResults,
      },
      (req) => taxRule(db(), paged(req.query)),
    ),
  );

  app.get(
    '/gx_programs',
    amTool(
      'amGxPrograms',
      'Green-transformation programs by theme (keyword sets per theme)',
      {
        querystring: amQuery({
          theme: Type.Optional(Text(`One of ${Object.keys(GX_THEMES).join(', ')} (default ghg_reduction).`, 40)),
          region: Type.Optional(Text('Prefecture; nationwide programs are included.', 50)),
          query: Type.Optional(Text('Further words that must appear.')),
          ...applicantQuery,
          limit: paging(20).limit,
        }),
        response: TotalResults,
      },
      (req) => gxPrograms(db(), paged(req.query)),
    ),
  );

  app.get(
    '/enforcement',
    amTool(
      'amEnforcement',
      'Does a company have an exclusion period in force, and its enforcement history',
      {
        querystring: amQuery({
          houjin_bangou: Type.Optional(Text('13-digit corporate number.', 40)),
          target_name: Type.Optional(Text('Company name (2+ characters), matched by the free text of GET /v1/enforcement/search.')),
          as_of_date: Type.Optional(DateParam('Day the exclusion period is checked against (default today).')),
        }),
        response: EnforcementResponse,
      },
      (req) => enforcementCheck(db(), req.query),
    ),
  );

  app.get(
    '/enums/:enum_name',
    amTool(
      'amEnumValues',
      'Values and counts of one enumeration',
      {
        params: Type.Object({
          enum_name: Type.String({
            minLength: 1,
            maxLength: 100,
            description:
              'authority, tier, industry, funding_purpose, target_type, region, tax_category, program_kind, event_type, ministry, record_kind, relation, or a dataset enum (program.tier, …).',
          }),
        }),
        response: EnumResponse,
      },
      (req) => enums(db(), req.params.enum_name, db().metaValue('last_ingested_at')),
    ),
  );

  app.get(
    '/intent',
    amTool(
      'amIntent',
      'Map a natural-language question to one of 10 intents (rule-based)',
      {
        querystring: amQuery({ query: Text('Question in Japanese or English.', 2000) }),
        response: IntentResponse,
      },
      (req) => intent(req.query.query),
    ),
  );

  app.get(
    '/law_article',
    amTool(
      'amLawArticle',
      'Text of one statute article from a law name or id and an article number',
      {
        querystring: amQuery({
          law_name_or_canonical_id: Text('Formal title, short name (略称), slug or LAW- id.'),
          article_number: Text('第17条, 第二十一条の二, 21-2, 附則第3条.', 40),
        }),
        response: LawArticleResponse,
      },
      (req) => lawArticleLookup(db(), req.query),
    ),
  );

  app.get(
    '/reason',
    amTool(
      'amReason',
      'Citation-backed answer skeleton: intent + slots + catalogue lookup',
      {
        querystring: amQuery({
          query: Text('Question in Japanese or English.', 2000),
          persona: Type.Optional(Text(`One of ${PERSONAS.join(', ')}.`, 40)),
        }),
        response: ReasonResponse,
      },
      (req) => reason(db(), req.query, undefined, app.catalog.search),
    ),
  );

  app.get(
    '/related/:program_id',
    amTool(
      'amRelated',
      'Walk the entity graph 1 or 2 hops from a seed',
      {
        params: Type.Object({ program_id: Type.String({ minLength: 1, maxLength: 200, description: 'Seed entity id (a program or any other entity).' }) }),
        querystring: amQuery({
          depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 2, default: 1, description: 'Hops, 1 (default) or 2.' })),
          relation_types: Type.Optional(ListParam(`Relation types among ${RELATION_TYPES.join(', ')}.`)),
          max_edges: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Stop after this many edges (default 100).' })),
        }),
        response: RelatedResponse,
      },
      (req) =>
        related(db(), req.params.program_id, { depth: req.query.depth ?? 1, relation_types: req.query.relation_types, max_edges: req.query.max_edges ?? 100 }),
    ),
  );

  app.post(
    '/validate',
    amTool(
      'amValidate',
      'Intake validation of applicant data (6 generic predicates + entity rules), cached by applicant hash',
      { body: ValidateRequest, response: ValidateResponseSchema },
      (req) => validate(db(), validateCacheNow(), req.body as { applicant_data: Record<string, unknown>; entity_id?: string | null; scope?: string }),
      [400, 401, 413, 415, 429],
    ),
  );
};

export default amRoutes;
