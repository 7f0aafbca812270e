// Parameter and result types of the resource methods: stable, readable
// aliases of the types generated from docs/openapi.json
// (generated/openapi.ts). Every public endpoint is in the document now; an
// endpoint added later gets a HAND-WRITTEN type here (written from the
// interface specification, marked so) until it lands in the document.
import type * as G from '../generated/openapi.ts';

export type {
  Attribution,
  ProgramDetail,
  ProgramMinimal,
  ProgramHit,
  ProgramHitFull,
  ProgramHitMinimal,
  ScoreParts,
  ExclusionRule,
  Loan,
  TaxRuleset,
  EnforcementRecord,
  Law,
  LawArticle,
  CaseStudy,
  Certification,
  Bid,
  BillingInvoice,
  Operations,
} from '../generated/openapi.ts';
export type Advisor = G.AdvisorOut;
/** A program in the default shape (a search row without the search's own key score). */
export type Program = Omit<G.ProgramHit, 'score'>;

// ---- meta, ping, feedback -------------------------------------------------
export type Meta = G.GetMetaResponse;
export type Ping = G.PingResponse;
export type Healthz = G.HealthzResponse;
export type FeedbackRequest = G.SendFeedbackBody;
export type FeedbackResponse = G.SendFeedbackResponse;

// ---- programs, exclusions -------------------------------------------------
export type ProgramSearchQuery = G.SearchProgramsQuery;
export type ProgramSearchResponse = G.SearchProgramsResponse;
export type ProgramGetQuery = G.GetProgramQuery;
export type ProgramGetResponse = G.GetProgramResponse;
export type ProgramBatchRequest = G.BatchGetProgramsBody;
export type ProgramBatchResponse = G.BatchGetProgramsResponse;
export type ProgramMatchRequest = G.MatchProgramsBody;
export type ProgramMatchResponse = G.MatchProgramsResponse;
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
export type LawRevisionsResponse = G.ListLawRevisionsResponse;
export type CaseStudySearchQuery = G.SearchCaseStudiesQuery;
export type CaseStudySearchResponse = G.SearchCaseStudiesResponse;
export type CaseStudyGetResponse = G.GetCaseStudyResponse;
export type CertificationSearchQuery = G.SearchCertificationsQuery;
export type CertificationSearchResponse = G.SearchCertificationsResponse;
export type CertificationGetResponse = G.GetCertificationResponse;
export type BidSearchQuery = G.SearchBidsQuery;
export type BidSearchResponse = G.SearchBidsResponse;
export type BidGetResponse = G.GetBidResponse;

// ---- billing, account, device authorization -------------------------------
export type CheckoutRequest = G.CreateCheckoutBody;
export type CheckoutResponse = G.CreateCheckoutResponse;
export type PortalRequest = G.CreateBillingPortalBody;
export type BillingPortalResponse = G.CreateBillingPortalResponse;
export type KeysFromCheckoutRequest = G.IssueKeyFromCheckoutBody;
/** The paid key is shown once. */
export type KeysFromCheckoutResponse = G.IssueKeyFromCheckoutResponse;
export type BillingHistoryResponse = G.GetBillingHistoryResponse;
export type MeResponse = G.GetMeResponse;
export type DashboardResponse = G.GetDashboardResponse;
/** null removes the cap; an integer N > 0 caps billable spend at N yen per Japan-time month. */
export type SetCapRequest = G.SetCapBody;
export type SetCapResponse = G.SetCapResponse;
export type DeviceAuthorizeRequest = G.DeviceAuthorizeBody;
export type DeviceAuthorizeResponse = G.DeviceAuthorizeResponse;
export type DeviceTokenRequest = G.DeviceTokenBody;
export type DeviceTokenResponse = G.DeviceTokenResponse;

// ---- advisors -------------------------------------------------------------
export type AdvisorListQuery = G.ListAdvisorsQuery;
export type AdvisorListResponse = G.ListAdvisorsResponse;
export type AdvisorSignupRequest = G.AdvisorSignupBody;
export type AdvisorSignupResponse = G.AdvisorSignupResponse;
export type AdvisorTrackRequest = G.TrackAdvisorReferralBody;
export type AdvisorTrackResponse = G.TrackAdvisorReferralResponse;
export type AdvisorConversionRequest = G.ReportAdvisorConversionBody;
export type AdvisorConversionResponse = G.ReportAdvisorConversionResponse;
export type AdvisorDashboardResponse = G.GetAdvisorDashboardResponse;

// ---- entity graph /v1/am/* ------------------------------------------------
export type AMActiveAtQuery = G.AmActiveAtQuery;
export type AMActiveAtResponse = G.AmActiveAtResponse;
export type AMOpenProgramsQuery = G.AmOpenProgramsQuery;
export type AMOpenProgramsResponse = G.AmOpenProgramsResponse;
export type AMAnnotationsQuery = G.AmAnnotationsQuery;
export type AMAnnotationsResponse = G.AmAnnotationsResponse;
export type AMByLawQuery = G.AmByLawQuery;
export type AMByLawResponse = G.AmByLawResponse;
export type AMProvenanceQuery = G.AmProvenanceQuery;
export type AMProvenanceResponse = G.AmProvenanceResponse;
export type AMProvenanceForFactQuery = G.AmProvenanceForFactQuery;
export type AMProvenanceForFactResponse = G.AmProvenanceForFactResponse;
export type AMLoansQuery = G.AmLoansQuery;
export type AMLoansResponse = G.AmLoansResponse;
export type AMMutualPlansQuery = G.AmMutualPlansQuery;
export type AMMutualPlansResponse = G.AmMutualPlansResponse;
export type AMTaxRuleQuery = G.AmTaxRuleQuery;
export type AMTaxRuleResponse = G.AmTaxRuleResponse;
export type AMGxProgramsQuery = G.AmGxProgramsQuery;
export type AMGxProgramsResponse = G.AmGxProgramsResponse;
export type AMEnforcementQuery = G.AmEnforcementQuery;
export type AMEnforcementResponse = G.AmEnforcementResponse;
export type AMEnumResponse = G.AmEnumValuesResponse;
export type AMIntentQuery = G.AmIntentQuery;
export type AMIntentResponse = G.AmIntentResponse;
export type AMLawArticleQuery = G.AmLawArticleQuery;
export type AMLawArticleResponse = G.AmLawArticleResponse;
export type AMReasonQuery = G.AmReasonQuery;
export type AMReasonResponse = G.AmReasonResponse;
export type AMRelatedQuery = G.AmRelatedQuery;
export type AMRelatedResponse = G.AmRelatedResponse;
export type AMValidateRequest = G.AmValidateBody;
export type AMValidateResponse = G.AmValidateResponse;

// ---- staying informed: change feed, saved searches, webhooks, subscribers, calendars, exports ----
export type ChangesQuery = G.ListChangesQuery;
export type ChangesResponse = G.ListChangesResponse;
export type ChangeEvent = ChangesResponse['results'][number];
export type DatasetVersionsResponse = G.ListDatasetVersionsResponse;
export type ProgramHistoryResponse = G.GetProgramHistoryResponse;
export type SavedSearchQuery = G.SavedSearchQuery;
export type SavedSearchCreateRequest = G.CreateSavedSearchBody;
export type SavedSearch = G.CreateSavedSearchResponse;
export type SavedSearchList = G.ListSavedSearchesResponse;
export type SavedSearchDetail = G.GetSavedSearchResponse;
export type WebhookCreateRequest = G.CreateWebhookBody;
export type WebhookCreated = G.CreateWebhookResponse;
export type WebhookList = G.ListWebhooksResponse;
export type WebhookTestQueued = G.TestWebhookResponse;
export type WebhookDeliveriesQuery = G.ListWebhookDeliveriesQuery;
export type WebhookDeliveries = G.ListWebhookDeliveriesResponse;
export type SubscribeRequest = G.SubscribeBody;
export type SubscribeResponse = G.SubscribeResponse;
export type DeadlineCalendarQuery = G.GetDeadlineCalendarQuery;
export type DeadlineCalendarResponse = G.GetDeadlineCalendarResponse;
/** An export's format: CSV (UTF-8 with BOM) or JSON Lines. */
export type ExportFormat = 'csv' | 'jsonl';
