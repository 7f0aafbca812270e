// get_law: one statute by LAW- id.
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o, RECORD_EMPTY } from '../lib/fields.ts';
import { LAW_ID } from '../lib/ids.ts';

export const getLaw = defineTool({
  name: 'get_law',
  title: 'Get one law',
  description: 'Fetch one statute by its LAW- id: title, number, dates, ministry, status and source.',
  input: { unified_id: LAW_ID.describe('Law id, LAW- followed by 10 hex digits') },
  output: { record: o.record() },
  annotations: READ_ONLY,
  empty: RECORD_EMPTY,
  async run(call, a) {
    const record: Row = await call.api.laws.get(a.unified_id);
    return { record };
  },
});
