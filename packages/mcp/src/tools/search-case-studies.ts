// search_case_studies: published case studies of small businesses. Its
// filters are those of the case-studies spec (the pages state no award
// amounts, so the reference surface's amount filters are not offered).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchCaseStudies = recordSearchTool(RECORD_SETS.case_studies, (api) => api.caseStudies);
