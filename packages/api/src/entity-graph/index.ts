// The entity graph behind /v1/am/*.
//
// "am" is AutonoMath, the former name of the upstream service
// (shigetosidumeda-cyber/autonomath-mcp) and of its entity-fact store: one
// heterogeneous table of 12 record kinds with typed relations. The contract
// keeps the `/v1/am/*` paths; the code says what it is.
//
// Layout (dependencies point down; nothing here imports routes/ or plugins/):
//   queries/    SQL over the graph (entities, relations), the enums and the
//               two catalogue tables that are no record set (municipalities,
//               programs); the graph's tables are built at ingest
//               (ingest/entity-graph/)
//   *.ts        the tools, one file per domain: programs-at-date (active_at,
//               open_programs) and gx-programs with applicant-filters;
//               by-law, law-article (+ law-resolution, law-names); tax-rule;
//               loans; enforcement; enums; annotations, provenance, related
//               (+ seed); intent, reason (+ slots); validate (+ canonical-json).
//               envelope and params are what they all share.
// A tool that reads a record set (loans, mutual_plans, tax_rule,
// enforcement, law_article) reads it as REST does: through the set's spec and
// catalog/queries/record-sets.ts (docs/decisions/0222-am-reads-record-sets-through-specs.md).
// Each tool takes validated parameters and the catalogue and returns the
// contract's response object; a tool failure is reported in `error` (200),
// never thrown. This file is the surface the routes use.
export { RECORD_KINDS } from './schema.ts';
export { activeAt, openPrograms } from './programs-at-date.ts';
export { TARGET_CODES } from './applicant-filters.ts';
export { annotations, ANNOTATION_KINDS, ANNOTATION_SEVERITIES } from './annotations.ts';
export { provenance } from './provenance.ts';
export { byLaw } from './by-law.ts';
export { lawArticleLookup } from './law-article.ts';
export { related, RELATION_TYPES } from './related.ts';
export { loans, mutualPlans, LOAN_KINDS } from './loans.ts';
export { PLAN_KINDS, TAX_DEDUCTION_TYPES } from '../catalog/record-sets/plan-kinds.ts';
export { taxRule, TAX_RULE_TYPES } from './tax-rule.ts';
export { gxPrograms, GX_THEMES } from './gx-programs.ts';
export { enforcementCheck } from './enforcement.ts';
export { enums } from './enums.ts';
export { intent } from './intent.ts';
export { reason, PERSONAS } from './reason.ts';
export { validate, type ValidateResponse } from './validate.ts';
