// Parameter and result types of the resource methods. Where the endpoint is
// in docs/openapi.json the type is an alias of the generated one
// (generated/openapi.ts). Types marked HAND-WRITTEN are written from the
// interface specification because their endpoint is not in the document yet;
// they switch to the generated ones as the endpoints land. Hand-written query
// types keep an index signature: the contract does not list every parameter.
import type * as G from '../generated/openapi.ts';
import type { QueryValue } from '../client.ts';

export type {
  Attribution, Program, ProgramDetail, ProgramMinimal, ExclusionRule, Loan, TaxRuleset, EnforcementRecord, Law, LawArticle,
  CaseStudy, Certification, Bid, Operations,
} from '../generated/openapi.ts';

/** Open-ended extra query parameters (for parameters the contract does not list). */
type Extra = { [key: string]: QueryValue };
export type AMQueryValue = QueryValue;

// ---- meta, ping, feedback -------------------------------------------------
export type Meta = G.GetMetaResponse;
export type Ping = G.PingResponse;
export type Healthz = G.HealthzResponse;

/** HAND-WRITTEN (spec: POST /v1/feedback). */
export type FeedbackRequest = {
  /** 1 to 4000 characters. */
  message: string;
  /** 1 to 5. */
  rating?: number;
  endpoint?: string;
  /** e.g. the `X-Request-ID` of a response you are reporting on. */
  request_id?: string;
};
/** HAND-WRITTEN (spec: FeedbackResponse). */
export type FeedbackResponse = { received: boolean; feedback_id: number };

// ---- programs, exclusions -------------------------------------------------
export type ProgramSearchQuery = G.SearchProgramsQuery;
export type ProgramSearchResponse = G.SearchProgramsResponse;
export type ProgramGetQuery = G.GetProgramQuery;
export type ProgramGetResponse = G.GetProgramResponse;
export type ProgramBatchRequest = G.BatchGetProgramsBody;
export type ProgramBatchResponse = G.BatchGetProgramsResponse;
export type ExclusionRulesResponse = G.ListExclusionRulesResponse;
export type ExclusionCheckRequest = G.CheckExclusionsBody;
export type ExclusionCheckResponse = G.CheckExclusionsResponse;

// ---- record sets ----------------------------------------------------------
export type LoanSearchQuery = G.SearchLoansQuery;
export type LoanSearchResponse = G.SearchLoansResponse;
export type LoanGetResponse = G.GetLoanResponse;
export type TaxRulesetSearchQuery = G.SearchTaxRulesetsQuery;
export type TaxRulesetSearchResponse = G.SearchTaxRulesetsResponse;
export type TaxRulesetGetResponse = G.GetTaxRulesetResponse;
export type EnforcementSearchQuery = G.SearchEnforcementQuery;
export type EnforcementSearchResponse = G.SearchEnforcementResponse;
export type EnforcementGetResponse = G.GetEnforcementResponse;
export type LawSearchQuery = G.SearchLawsQuery;
export type LawSearchResponse = G.SearchLawsResponse;
export type LawGetResponse = G.GetLawResponse;
export type LawArticlesQuery = G.ListLawArticlesQuery;
export type LawArticlesResponse = G.ListLawArticlesResponse;
export type LawArticleGetResponse = G.GetLawArticleResponse;
export type CaseStudySearchQuery = G.SearchCaseStudiesQuery;
export type CaseStudySearchResponse = G.SearchCaseStudiesResponse;
export type CaseStudyGetResponse = G.GetCaseStudyResponse;
export type CertificationSearchQuery = G.SearchCertificationsQuery;
export type CertificationSearchResponse = G.SearchCertificationsResponse;
export type CertificationGetResponse = G.GetCertificationResponse;
export type BidSearchQuery = G.SearchBidsQuery;
export type BidSearchResponse = G.SearchBidsResponse;
export type BidGetResponse = G.GetBidResponse;

// ---- billing (HAND-WRITTEN from the spec and packages/api/src/schemas/billing.ts) ----
export type CheckoutRequest = { success_url: string; cancel_url: string; customer_email?: string };
export type CheckoutResponse = { url: string; session_id: string };
export type PortalRequest = { customer_id: string; return_url?: string };
export type BillingPortalResponse = { url: string };
export type KeysFromCheckoutRequest = { session_id: string };
/** The paid key is shown once. */
export type KeysFromCheckoutResponse = { api_key: string; tier: string; customer_id: string };
export type BillingInvoice = {
  id: string;
  number: string | null;
  period_start: string | null;
  period_end: string | null;
  amount_due_yen: number;
  amount_paid_yen: number;
  currency: string;
  status: string;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  created: string;
};
export type BillingHistoryResponse = { invoices: BillingInvoice[]; cached_at: string; customer_id: string | null };

// ---- me (HAND-WRITTEN; the contract does not show the account fields) ----
export type MeResponse = { tier?: string; customer_id?: string | null; monthly_cap_yen?: number | null; [key: string]: unknown };
export type DashboardResponse = { [key: string]: unknown };
/** null removes the cap; an integer N > 0 caps billable spend at N yen per Japan-time month. */
export type SetCapRequest = { monthly_cap_yen: number | null };
export type SetCapResponse = { monthly_cap_yen?: number | null; [key: string]: unknown };

// ---- device authorization (HAND-WRITTEN; RFC 8628) ----
export type DeviceAuthorizeRequest = { client_id?: string; scope?: string | null };
export type DeviceAuthorizeResponse = {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
};
export type DeviceTokenRequest = { device_code: string; client_id?: string; grant_type?: string };
export type DeviceTokenResponse = { access_token: string; token_type: string; expires_in?: number; scope?: string; [key: string]: unknown };

// ---- advisors (HAND-WRITTEN from the spec's AdvisorOut / dashboard shapes) ----
export type FirmType = '税理士法人' | '認定支援機関' | '社会保険労務士' | '中小企業診断士' | '行政書士' | '弁護士' | '銀行' | '商工会議所' | 'その他';
export type Advisor = {
  id: number;
  firm_name: string;
  firm_type: FirmType | string;
  specialties: string[];
  prefecture: string;
  address?: string | null;
  city?: string | null;
  contact_email?: string | null;
  contact_phone?: string | null;
  contact_url?: string | null;
  firm_name_kana?: string | null;
  intro_blurb?: string | null;
  verified_at?: string | null;
  industries?: string[] | null;
  commission_model?: 'flat' | 'percent';
  commission_rate_pct?: number;
  commission_yen_per_intro?: number | null;
  success_count?: number;
};
export type AdvisorListQuery = { prefecture?: string; specialty?: string; industry?: string; limit?: number; offset?: number } & Extra;
export type AdvisorListResponse = { total: number; results: Advisor[]; [key: string]: unknown };
export type AdvisorSignupRequest = {
  firm_name: string;
  houjin_bangou: string;
  firm_type: FirmType;
  specialties: string[];
  prefecture: string;
  contact_email: string;
  agreed_to_terms: boolean;
  [key: string]: unknown;
};
export type AdvisorSignupResponse = { advisor_id: number; [key: string]: unknown };
export type AdvisorTrackRequest = { advisor_id: number; source_query_hash?: string | null; source_program_id?: string | null };
export type AdvisorTrackResponse = { token: string; redirect_url: string; [key: string]: unknown };
export type AdvisorConversionRequest = { referral_token: string; conversion_value_yen?: number | null; evidence_url?: string | null };
export type AdvisorConversionResponse = { [key: string]: unknown };
export type AdvisorReferral = {
  id: number;
  token_prefix: string;
  clicked_at?: string | null;
  converted_at?: string | null;
  commission_paid_at?: string | null;
  source_program_id?: string | null;
  commission_yen?: number | null;
  conversion_value_yen?: number | null;
};
export type AdvisorDashboardResponse = {
  advisor: Record<string, unknown>;
  summary: { clicks: number; conversions: number; paid_yen: number; unpaid_yen: number };
  referrals?: AdvisorReferral[];
};

// ---- entity graph /v1/am/* (HAND-WRITTEN from the spec's response table; query names from the tool reference) ----
type AMError = Record<string, unknown> | null;
/** Common envelope of paginated /v1/am/* answers; additional properties allowed. */
export type AMSearchResponse = {
  total: number;
  limit: number;
  offset: number;
  results: Record<string, unknown>[];
  meta?: Record<string, unknown> | null;
  /** Set when the tool failed; `results` is then empty: report it instead of rendering an empty list. */
  error?: AMError;
  retrieval_note?: string | null;
  [key: string]: unknown;
};
export type AMActiveAtQuery = { date: string; region?: string; industry?: string; size?: string; limit?: number } & Extra;
export type AMActiveAtResponse = AMSearchResponse & { pivot_date?: string | null };
export type AMOpenProgramsQuery = { on_date?: string; region?: string; industry?: string; size?: string; natural_query?: string; limit?: number } & Extra;
export type AMOpenProgramsResponse = AMSearchResponse & { pivot_date?: string };
export type AMAnnotationsResponse = AMSearchResponse & { entity_id: string; filters?: Record<string, unknown> };
export type AMByLawQuery = { law_name: string; article?: string; amendment_date?: string; limit?: number; offset?: number } & Extra;
export type AMByLawResponse = AMSearchResponse & { law_aliases_tried?: string[] };
export type AMProvenanceResponse = AMSearchResponse;
export type AMLoansQuery = {
  loan_kind?: string; no_collateral?: boolean; no_personal_guarantor?: boolean; no_third_party_guarantor?: boolean;
  min_amount_yen?: number; max_amount_yen?: number; lender_entity_id?: string; name_query?: string; limit?: number; offset?: number;
} & Extra;
export type AMMutualPlansQuery = {
  plan_kind?: string; premium_monthly_yen?: number; tax_deduction_type?: string; provider_entity_id?: string; name_query?: string; limit?: number; offset?: number;
} & Extra;
export type AMListResponse = {
  results: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
  result_count: number;
  error?: AMError;
  [key: string]: unknown;
};
export type AMTaxRuleQuery = { measure_name_or_id: string; rule_type?: string; as_of?: string } & Extra;
export type AMTotalResultsResponse = { total: number; results: Record<string, unknown>[]; error?: AMError; [key: string]: unknown };
export type AMGxProgramsQuery = { theme?: string; company_size?: string; region?: string; limit?: number } & Extra;
export type AMEnforcementQuery = { houjin_bangou?: string; target_name?: string; as_of_date?: string } & Extra;
export type AMEnforcementResponse = {
  found: boolean;
  currently_excluded: boolean;
  active_exclusions: Record<string, unknown>[];
  all_count: number;
  queried: Record<string, unknown>;
  recent_history: Record<string, unknown>[];
  error?: AMError;
  [key: string]: unknown;
};
export type AMEnumResponse = {
  enum_name: string;
  description: string | null;
  values: string[];
  frequency_map: Record<string, number>;
  last_updated: string | null;
  error?: AMError;
  [key: string]: unknown;
};
export type AMIntentQuery = { query: string } & Extra;
export type AMIntentResponse = {
  intent_id: string | null;
  intent_name_ja: string | null;
  confidence: number | null;
  all_scores: Record<string, unknown>[];
  sample_queries: string[];
  error?: AMError;
  [key: string]: unknown;
};
export type AMLawArticleQuery = { law_name_or_canonical_id: string; article_number: string } & Extra;
export type AMLawArticleResponse = {
  found: boolean;
  article_id?: string | null;
  article_number?: string | null;
  article_number_sort?: number | null;
  effective_from?: string | null;
  effective_until?: string | null;
  last_amended?: string | null;
  law?: Record<string, unknown> | null;
  source_fetched_at?: string | null;
  source_url?: string | null;
  text_full?: string | null;
  text_summary?: string | null;
  title?: string | null;
  error?: AMError;
  [key: string]: unknown;
};
export type AMReasonQuery = { query: string; persona?: string } & Extra;
export type AMReasonResponse = {
  answer_skeleton: string | null;
  intent: string | null;
  intent_name_ja: string | null;
  persona_hint: string | null;
  confidence: number | null;
  db_bind_ok: boolean | null;
  db_bind_notes: string | string[] | null;
  filters_extracted: Record<string, unknown>;
  missing_data: string[];
  precompute_gaps: string[];
  retry_with: Record<string, unknown> | null;
  source_urls: string[];
  error?: AMError;
  [key: string]: unknown;
};
export type AMRelatedQuery = { relation_types?: string | string[]; depth?: number; max_edges?: number } & Extra;
export type AMRelatedResponse = {
  seed_id: string;
  seed_kind: string | null;
  depth: number;
  total_edges: number;
  nodes: Record<string, unknown>[];
  relations: Record<string, unknown>[];
  hint: string | null;
  retry_with: Record<string, unknown> | null;
  error?: AMError;
  [key: string]: unknown;
};
export type AMValidateRequest = { applicant_data: Record<string, unknown>; entity_id?: string | null; scope?: string };
export type AMValidateResponse = {
  applicant_hash: string | null;
  entity_id: string | null;
  scope: string;
  total: number;
  results: Record<string, unknown>[];
  summary: Record<string, unknown>;
  error?: AMError;
  [key: string]: unknown;
};
