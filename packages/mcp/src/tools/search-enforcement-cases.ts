// search_enforcement_cases: findings of improper subsidy use and
// administrative actions (a record set: its filters come from the record-set
// spec once that lands; until then the ones below are declared not applied).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { ROW_DETAIL } from '../lib/enums.ts';
import { f, SEARCH_EMPTY, searchOutput } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { asSearch, compact, noHits } from '../lib/search.ts';

const NO_FILTER = 'the enforcement search has no such filter';

export const searchEnforcementCases = defineTool({
  name: 'search_enforcement_cases',
  title: 'Search enforcement findings',
  description: 'Search findings of improper subsidy use and administrative actions (Board of Audit, labour bureaus, regulators) by keywords, authority, prefecture, legal basis, corporate number, amounts and dates.',
  input: {
    q: f.q('titles, target names and reasons'),
    event_type: z.string().max(100).optional().describe('Action type, values as listed by enum_values(field=event_type)'),
    ministry: z.string().max(100).optional().describe('Authority that published the finding, e.g. 会計検査院, 厚生労働省'),
    prefecture: f.prefecture(),
    legal_basis: z.string().max(200).optional().describe('Statute named in the finding (substring)'),
    program_name_hint: z.string().max(200).optional().describe('Program name as published in the finding (substring)'),
    recipient_houjin_bangou: f.houjin('Corporate number (13 digits) of the recipient'),
    min_improper_grant_yen: z.number().int().min(0).optional().describe('Lowest improper amount, yen'),
    max_improper_grant_yen: z.number().int().min(0).optional().describe('Highest improper amount, yen'),
    disclosed_from: f.date('Earliest action/disclosure date'),
    disclosed_until: f.date('Latest action/disclosure date'),
    limit: f.limit(100, 20, 'findings'),
    offset: f.offset(),
    fields: ROW_DETAIL.default('minimal').describe('Row detail: minimal, standard or full'),
    as_of: f.asOf(),
  },
  output: searchOutput(),
  annotations: READ_ONLY,
  empty: SEARCH_EMPTY,
  notApplied: {
    event_type: NO_FILTER,
    legal_basis: `${NO_FILTER}, but it is used as the keywords when q is empty`,
    program_name_hint: `${NO_FILTER}, but it is used as the keywords when q and legal_basis are empty`,
    min_improper_grant_yen: NO_FILTER,
    max_improper_grant_yen: NO_FILTER,
    fields: 'findings come in one row shape',
    as_of: 'findings are not versioned by date',
  },
  async run(call, a) {
    const body = await call.api.enforcement.search(compact({
      q: a.q ?? a.legal_basis ?? a.program_name_hint, authority: a.ministry, prefecture: prefectureArg(call, a.prefecture),
      houjin_bangou: a.recipient_houjin_bangou, decided_from: a.disclosed_from, decided_to: a.disclosed_until, limit: a.limit, offset: a.offset,
    }));
    return noHits('finding', asSearch(body));
  },
});
