import { APIResource } from './resource.ts';
import { path } from '../path.ts';
import type { CallOptions } from '../request-options.ts';
import type * as T from './types.ts';

/**
 * /v1/am/*: the entity graph, law articles, enforcement checks, enumerations,
 * intent routing, citation-backed answers and intake validation. Tool
 * failures arrive as a 200 with `error` set and `results` empty: check
 * `error` before rendering.
 */
export class AM extends APIResource {
  /** GET /v1/am/active_at: programs and measures legally valid on `date`. */
  async activeAt(query: T.AMActiveAtQuery = {}, options?: CallOptions): Promise<T.AMActiveAtResponse> {
    return this._client.get('/v1/am/active_at', { query, ...options });
  }

  /** GET /v1/am/open_programs: programs whose application window is open on a date (default today). */
  async openPrograms(query: T.AMOpenProgramsQuery = {}, options?: CallOptions): Promise<T.AMOpenProgramsResponse> {
    return this._client.get('/v1/am/open_programs', { query, ...options });
  }

  /** GET /v1/am/annotations/{entity_id}: examiner, quality and ML notes. */
  async annotations(entityId: string, query: T.AMAnnotationsQuery = {}, options?: CallOptions): Promise<T.AMAnnotationsResponse> {
    return this._client.get(path`/v1/am/annotations/${entityId}`, { query, ...options });
  }

  /** GET /v1/am/by_law: programs, tax measures, loans, certifications tied to a law. */
  async byLaw(query: T.AMByLawQuery, options?: CallOptions): Promise<T.AMByLawResponse> {
    return this._client.get('/v1/am/by_law', { query, ...options });
  }

  /** GET /v1/am/provenance/{entity_id}: where an entity's facts come from. */
  async provenance(entityId: string, query: T.AMProvenanceQuery = {}, options?: CallOptions): Promise<T.AMProvenanceResponse> {
    return this._client.get(path`/v1/am/provenance/${entityId}`, { query, ...options });
  }

  /** GET /v1/am/provenance/{entity_id}/{field}: where one fact of an entity comes from. */
  async provenanceForFact(
    entityId: string,
    field: string,
    query: T.AMProvenanceForFactQuery = {},
    options?: CallOptions,
  ): Promise<T.AMProvenanceForFactResponse> {
    return this._client.get(path`/v1/am/provenance/${entityId}/${field}`, { query, ...options });
  }

  /** GET /v1/am/loans: loan products with no-collateral / no-guarantor switches. */
  async loans(query: T.AMLoansQuery = {}, options?: CallOptions): Promise<T.AMLoansResponse> {
    return this._client.get('/v1/am/loans', { query, ...options });
  }

  /** GET /v1/am/mutual_plans: mutual-aid, pension and insurance plans. */
  async mutualPlans(query: T.AMMutualPlansQuery = {}, options?: CallOptions): Promise<T.AMMutualPlansResponse> {
    return this._client.get('/v1/am/mutual_plans', { query, ...options });
  }

  /** GET /v1/am/tax_rule: structured rules of a named tax measure. */
  async taxRule(query: T.AMTaxRuleQuery, options?: CallOptions): Promise<T.AMTaxRuleResponse> {
    return this._client.get('/v1/am/tax_rule', { query, ...options });
  }

  /** GET /v1/am/gx_programs: green-transformation programs by theme. */
  async gxPrograms(query: T.AMGxProgramsQuery = {}, options?: CallOptions): Promise<T.AMGxProgramsResponse> {
    return this._client.get('/v1/am/gx_programs', { query, ...options });
  }

  /** GET /v1/am/enforcement: whether a company is currently under an exclusion period. */
  async enforcement(query: T.AMEnforcementQuery = {}, options?: CallOptions): Promise<T.AMEnforcementResponse> {
    return this._client.get('/v1/am/enforcement', { query, ...options });
  }

  /** GET /v1/am/enums/{enum_name}: existing values and their counts. */
  async enums(enumName: string, options?: CallOptions): Promise<T.AMEnumResponse> {
    return this._client.get(path`/v1/am/enums/${enumName}`, options);
  }

  /** GET /v1/am/intent: which tool a natural-language question maps to. */
  async intent(query: T.AMIntentQuery, options?: CallOptions): Promise<T.AMIntentResponse> {
    return this._client.get('/v1/am/intent', { query, ...options });
  }

  /** GET /v1/am/law_article: one article's text from a law name or id and an article number. */
  async lawArticle(query: T.AMLawArticleQuery, options?: CallOptions): Promise<T.AMLawArticleResponse> {
    return this._client.get('/v1/am/law_article', { query, ...options });
  }

  /** GET /v1/am/reason: a citation-backed answer skeleton and the data it is missing. */
  async reason(query: T.AMReasonQuery, options?: CallOptions): Promise<T.AMReasonResponse> {
    return this._client.get('/v1/am/reason', { query, ...options });
  }

  /** GET /v1/am/related/{program_id}: 1–2 hop walk of the program relation graph. */
  async related(programId: string, query: T.AMRelatedQuery = {}, options?: CallOptions): Promise<T.AMRelatedResponse> {
    return this._client.get(path`/v1/am/related/${programId}`, { query, ...options });
  }

  /** POST /v1/am/validate: run intake predicates over applicant data. Read-only, so retried like a GET. */
  async validate(body: T.AMValidateRequest, options?: CallOptions): Promise<T.AMValidateResponse> {
    return this._client.post('/v1/am/validate', { body, idempotent: true, ...options });
  }
}
