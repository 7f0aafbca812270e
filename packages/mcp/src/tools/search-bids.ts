// search_bids: public procurement notices and results (the bids spec).
import { RECORD_SETS } from '../generated/record-sets.ts';
import { recordSearchTool } from '../lib/record-set-tools.ts';

export const searchBids = recordSearchTool(RECORD_SETS.bids, (api) => api.bids);
