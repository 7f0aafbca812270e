// get_law: one statute by LAW- id.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getLaw = recordGetTool(RECORD_SETS.laws, (api) => api.laws);
