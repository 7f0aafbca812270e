// get_enforcement_case: one improper-use finding or administrative action.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getEnforcementCase = recordGetTool(RECORD_SETS.enforcement, (api) => api.enforcement);
