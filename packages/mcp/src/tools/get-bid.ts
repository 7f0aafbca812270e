// get_bid: one procurement record by BID- id.
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';
import { BID_ID } from '../lib/ids.ts';

export const getBid = defineTool({
  name: 'get_bid',
  title: 'Get one bid',
  description: 'Fetch one public procurement record by its BID- id.',
  input: { unified_id: BID_ID.describe('Bid id, BID- followed by 10 hex digits') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.bids.get(a.unified_id);
    return { record };
  },
});
