// get_case_study: one case study record.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getCaseStudy = recordGetTool(RECORD_SETS.case_studies, (api) => api.caseStudies);
