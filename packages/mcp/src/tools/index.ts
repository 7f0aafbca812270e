// The registry: all 55 tools, in the order of the reference list.
import type { ToolDef } from '../lib/tool.ts';
import * as programs from './programs.ts';
import * as records from './records.ts';
import * as noData from './no-data.ts';
import * as composite from './composite.ts';
import * as am from './am.ts';

export const TOOLS: readonly ToolDef[] = [
  // core (38)
  programs.searchPrograms,
  programs.getProgram,
  programs.batchGetPrograms,
  programs.listExclusionRules,
  programs.checkExclusions,
  programs.getMeta,
  programs.enumValues,
  records.searchEnforcementCases,
  records.getEnforcementCase,
  records.searchCaseStudies,
  records.getCaseStudy,
  records.searchLoanPrograms,
  records.getLoanProgram,
  composite.prescreenPrograms,
  composite.smbStarterPack,
  composite.upcomingDeadlines,
  composite.deadlineCalendar,
  composite.subsidyComboFinder,
  composite.ddProfileAm,
  composite.similarCases,
  composite.subsidyRoadmap3yr,
  records.searchLaws,
  records.getLaw,
  records.listLawRevisions,
  noData.searchCourtDecisions,
  noData.getCourtDecision,
  noData.findPrecedentsByStatute,
  records.searchBids,
  records.getBid,
  composite.bidEligibleForProfile,
  records.searchTaxRules,
  records.getTaxRule,
  composite.evaluateTaxApplicability,
  noData.searchInvoiceRegistrants,
  composite.traceProgramToLaw,
  noData.findCasesByLaw,
  composite.combinedComplianceCheck,
  composite.regulatoryPrepPack,
  // entity-fact (17)
  am.searchTaxIncentives,
  am.searchCertifications,
  am.listOpenPrograms,
  am.enumValuesAm,
  am.searchByLaw,
  am.activeProgramsAt,
  am.relatedPrograms,
  am.searchAcceptanceStatsAm,
  am.intentOf,
  am.reasonAnswer,
  am.searchGxProgramsAm,
  am.searchLoansAm,
  am.checkEnforcementAm,
  am.searchMutualPlansAm,
  am.getLawArticleAm,
  am.getAmTaxRule,
  composite.listTaxSunsetAlerts,
] as ToolDef[];

export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);
