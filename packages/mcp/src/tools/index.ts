// The registry: the default tools, in the order of the reference list (core,
// then entity-fact). Their count is TOOLS.length, the one place it is kept
// (docs/decisions/0321-tool-count-from-registry.md). One file per tool:
// tools/<tool-name>.ts, the tool name with '-' for '_'.
import type { ToolDef } from '../lib/define.ts';
import { searchPrograms } from './search-programs.ts';
import { getProgram } from './get-program.ts';
import { batchGetPrograms } from './batch-get-programs.ts';
import { listExclusionRules } from './list-exclusion-rules.ts';
import { checkExclusions } from './check-exclusions.ts';
import { getMeta } from './get-meta.ts';
import { enumValues } from './enum-values.ts';
import { searchEnforcementCases } from './search-enforcement-cases.ts';
import { getEnforcementCase } from './get-enforcement-case.ts';
import { searchCaseStudies } from './search-case-studies.ts';
import { getCaseStudy } from './get-case-study.ts';
import { searchLoanPrograms } from './search-loan-programs.ts';
import { getLoanProgram } from './get-loan-program.ts';
import { prescreenPrograms } from './prescreen-programs.ts';
import { smbStarterPack } from './smb-starter-pack.ts';
import { upcomingDeadlines } from './upcoming-deadlines.ts';
import { deadlineCalendar } from './deadline-calendar.ts';
import { subsidyComboFinder } from './subsidy-combo-finder.ts';
import { ddProfileAm } from './dd-profile-am.ts';
import { similarCases } from './similar-cases.ts';
import { subsidyRoadmap3yr } from './subsidy-roadmap-3yr.ts';
import { searchLaws } from './search-laws.ts';
import { getLaw } from './get-law.ts';
import { listLawRevisions } from './list-law-revisions.ts';
import { searchCourtDecisions } from './search-court-decisions.ts';
import { getCourtDecision } from './get-court-decision.ts';
import { findPrecedentsByStatute } from './find-precedents-by-statute.ts';
import { searchBids } from './search-bids.ts';
import { getBid } from './get-bid.ts';
import { bidEligibleForProfile } from './bid-eligible-for-profile.ts';
import { searchTaxRules } from './search-tax-rules.ts';
import { getTaxRule } from './get-tax-rule.ts';
import { evaluateTaxApplicability } from './evaluate-tax-applicability.ts';
import { searchInvoiceRegistrants } from './search-invoice-registrants.ts';
import { traceProgramToLaw } from './trace-program-to-law.ts';
import { findCasesByLaw } from './find-cases-by-law.ts';
import { combinedComplianceCheck } from './combined-compliance-check.ts';
import { regulatoryPrepPack } from './regulatory-prep-pack.ts';
import { searchTaxIncentives } from './search-tax-incentives.ts';
import { searchCertifications } from './search-certifications.ts';
import { listOpenPrograms } from './list-open-programs.ts';
import { enumValuesAm } from './enum-values-am.ts';
import { searchByLaw } from './search-by-law.ts';
import { activeProgramsAt } from './active-programs-at.ts';
import { relatedPrograms } from './related-programs.ts';
import { searchAcceptanceStatsAm } from './search-acceptance-stats-am.ts';
import { intentOf } from './intent-of.ts';
import { reasonAnswer } from './reason-answer.ts';
import { searchGxProgramsAm } from './search-gx-programs-am.ts';
import { searchLoansAm } from './search-loans-am.ts';
import { checkEnforcementAm } from './check-enforcement-am.ts';
import { searchMutualPlansAm } from './search-mutual-plans-am.ts';
import { getLawArticleAm } from './get-law-article-am.ts';
import { getAmTaxRule } from './get-am-tax-rule.ts';
import { listTaxSunsetAlerts } from './list-tax-sunset-alerts.ts';

export const TOOLS: readonly ToolDef[] = [
  // core (38)
  searchPrograms,
  getProgram,
  batchGetPrograms,
  listExclusionRules,
  checkExclusions,
  getMeta,
  enumValues,
  searchEnforcementCases,
  getEnforcementCase,
  searchCaseStudies,
  getCaseStudy,
  searchLoanPrograms,
  getLoanProgram,
  prescreenPrograms,
  smbStarterPack,
  upcomingDeadlines,
  deadlineCalendar,
  subsidyComboFinder,
  ddProfileAm,
  similarCases,
  subsidyRoadmap3yr,
  searchLaws,
  getLaw,
  listLawRevisions,
  searchCourtDecisions,
  getCourtDecision,
  findPrecedentsByStatute,
  searchBids,
  getBid,
  bidEligibleForProfile,
  searchTaxRules,
  getTaxRule,
  evaluateTaxApplicability,
  searchInvoiceRegistrants,
  traceProgramToLaw,
  findCasesByLaw,
  combinedComplianceCheck,
  regulatoryPrepPack,
  // entity-fact (17)
  searchTaxIncentives,
  searchCertifications,
  listOpenPrograms,
  enumValuesAm,
  searchByLaw,
  activeProgramsAt,
  relatedPrograms,
  searchAcceptanceStatsAm,
  intentOf,
  reasonAnswer,
  searchGxProgramsAm,
  searchLoansAm,
  checkEnforcementAm,
  searchMutualPlansAm,
  getLawArticleAm,
  getAmTaxRule,
  listTaxSunsetAlerts,
] as ToolDef[];

export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

// ---- optional toolsets: off by default (tools/list stays at TOOLS) --------
// Enabled by the tool server's configuration: JPSP_MCP_TOOLSETS for stdio
// (bin.ts), MCP_TOOLSETS for the API's /mcp (routes/mcp.ts).
import { listChanges } from './list-changes.ts';
import { getProgramHistory } from './get-program-history.ts';
import { createSavedSearch } from './create-saved-search.ts';
import { listSavedSearches } from './list-saved-searches.ts';
import { getSavedSearch } from './get-saved-search.ts';
import { deleteSavedSearch } from './delete-saved-search.ts';
import { getDeadlineCalendar } from './get-deadline-calendar.ts';

export const TOOLSETS: Readonly<Record<string, readonly ToolDef[]>> = {
  /** Staying informed: the change feed, saved searches, deadline calendars (saved searches need a key). */
  informed: [listChanges, getProgramHistory, createSavedSearch, listSavedSearches, getSavedSearch, deleteSavedSearch, getDeadlineCalendar] as ToolDef[],
};

export class UnknownToolsetError extends Error {}

const registries = new Map<string, readonly ToolDef[]>();

/** The default tools plus those of the named toolsets (one shared array per combination); throws for an unknown name. */
export function toolsWith(toolsets: readonly string[] = []): readonly ToolDef[] {
  const names = [...new Set(toolsets)].sort();
  for (const name of names)
    if (!Object.hasOwn(TOOLSETS, name)) throw new UnknownToolsetError(`unknown toolset '${name}' (known: ${Object.keys(TOOLSETS).join(', ')})`);
  const key = names.join(',');
  let tools = registries.get(key);
  if (!tools) registries.set(key, (tools = [...TOOLS, ...names.flatMap((n) => TOOLSETS[n])]));
  return tools;
}

/** Toolset names from a comma-separated setting. */
export const parseToolsets = (value: string | undefined | null): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
