// get_bid: one procurement record by BID- id.
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordGetTool } from '../lib/record-set-tools.ts';

export const getBid = recordGetTool(RECORD_SETS.bids, (api) => api.bids);
