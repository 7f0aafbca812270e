// Enforcement: Board of Audit findings of over-payment (jbaudit), labour-bureau
// announcements of improper subsidy receipt (mhlw_fraud) and administrative
// actions against companies (corporate_action).
import { Type } from 'typebox';
import { defineRecordSet } from './spec.ts';
import { opt, Str, DateStr, Num, Bool, Houjin, Id, checkHoujin, prefectureFilter } from './fields.ts';
import { DateParam, HoujinParam, Short } from './params.ts';
import { likeContains } from '../text-query.ts';

const Yen = (description: string) => Type.Integer({ minimum: 0, maximum: 1e15, description });

export default defineRecordSet({
  name: 'enforcement',
  label: 'Enforcement record',
  table: 'enforcement',
  file: 'enforcement',
  idField: 'enforcement_id',
  schema: Type.Object({
    enforcement_id: Id,
    source_family: Type.String({ minLength: 1 }),
    title: Type.String(),
    target_name: Str,
    target_name_suppressed: Bool,
    houjin_bangou: Houjin,
    action_type: Str,
    authority: Str,
    bureau: Str,
    prefecture: Str,
    action_date: DateStr,
    program_name_at_publication: Str,
    amount_yen: Num,
    project_cost_yen: Num,
    granted_amount_yen: Num,
    improper_amount_yen: Num,
    exclusion_start: DateStr,
    exclusion_end: DateStr,
    related_law_text: Str,
    related_laws: opt(Type.Array(Type.Object({}))),
    related_programs_auto: opt(Type.Array(Type.Object({}))),
    reason_excerpt: Str,
    reason_excerpt_withheld: Bool,
    source_url: Type.String(),
    source_fetched_at: Str,
    _source: Str,
  }),
  check: checkHoujin('houjin_bangou'),
  columns: {
    enforcement_id: 'text', source_family: 'text', title: 'text', target_name: 'text', target_name_suppressed: 'bool',
    houjin_bangou: 'text', action_type: 'text', authority: 'text', bureau: 'text', prefecture: 'text',
    action_date: 'text', program_name_at_publication: 'text', amount_yen: 'real', project_cost_yen: 'real',
    granted_amount_yen: 'real', improper_amount_yen: 'real', exclusion_start: 'text', exclusion_end: 'text',
    related_law_text: 'text', related_laws: 'json', related_programs_auto: 'json', reason_excerpt: 'text',
    reason_excerpt_withheld: 'bool', source_url: 'text', source_fetched_at: 'text', _source: 'text',
  },
  unique: ['enforcement_id'],
  indexes: ['action_date', 'houjin_bangou', 'authority', 'source_family', 'prefecture', 'exclusion_end'],
  searchable: {
    title: { weight: 5, short: true },
    target_name: { weight: 5, short: true },
    authority: { weight: 1, from: ['authority', 'bureau', 'action_type'] },
    other: { weight: 1, from: ['program_name_at_publication', 'related_law_text', 'reason_excerpt'] },
  },

  row: { $id: 'EnforcementRecord' },
  search: {
    operationId: 'searchEnforcement',
    summary: 'Search enforcement records by free text, authority, decision date, corporate number, family, prefecture',
    responseId: 'EnforcementSearchResponse',
    filters: [
      {
        name: 'authority', aliases: ['ministry'], type: Short('Substring of the authority or bureau (e.g. 金融庁, 労働局)'),
        sql: "(r.authority LIKE ? ESCAPE '\\' OR r.bureau LIKE ? ESCAPE '\\')", bind: likeContains,
      },
      { name: 'decided_from', aliases: ['disclosed_from'], type: DateParam('action_date on or after'), sql: 'r.action_date >= ?' },
      { name: 'decided_to', aliases: ['disclosed_until'], type: DateParam('action_date on or before'), sql: 'substr(r.action_date, 1, 10) <= ?' },
      { name: 'houjin_bangou', aliases: ['recipient_houjin_bangou'], type: HoujinParam(), sql: 'r.houjin_bangou = ?' },
      { name: 'source_family', type: Short('jbaudit, mhlw_fraud, corporate_action'), sql: 'r.source_family = ?' },
      prefectureFilter(),
      { name: 'action_type', aliases: ['event_type'], type: Short('Exact action_type, e.g. 補助金 返還命令, 業務改善命令'), sql: 'r.action_type = ?' },
      {
        // The statute is in related_law_text (corporate actions) or related_laws[].law_name (findings): never both.
        name: 'related_law', aliases: ['legal_basis'], type: Short('Substring of a statute the record names (related_law_text or related_laws[].law_name)'),
        sql: "(r.related_law_text LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM json_each(r.related_laws) j WHERE json_extract(j.value, '$.law_name') LIKE ? ESCAPE '\\'))",
        bind: likeContains,
      },
      {
        name: 'program_name', aliases: ['program_name_hint'], type: Short('Substring of the program name as published in the finding (program_name_at_publication)'),
        sql: "r.program_name_at_publication LIKE ? ESCAPE '\\'", bind: likeContains,
      },
      {
        name: 'min_improper_amount_yen', aliases: ['min_improper_grant_yen'],
        type: Yen('improper_amount_yen at least this (records without an improper amount never match)'), sql: 'r.improper_amount_yen >= ?',
      },
      {
        name: 'max_improper_amount_yen', aliases: ['max_improper_grant_yen'],
        type: Yen('improper_amount_yen at most this (records without an improper amount never match)'), sql: 'r.improper_amount_yen <= ?',
      },
    ],
    ranges: [['min_improper_amount_yen', 'max_improper_amount_yen']],
    order: 'r.action_date DESC, r.enforcement_id',
  },
  detail: {
    operationId: 'getEnforcement',
    summary: 'One enforcement record by enforcement_id',
    keys: ['enforcement_id'],
  },
  tools: {
    search: {
      name: 'search_enforcement_cases',
      title: 'Search enforcement findings',
      description:
        'Search findings of improper subsidy use and administrative actions (Board of Audit, labour bureaus, regulators) by keywords, ' +
        'action type, authority, prefecture, statute, program name, corporate number, improper amount and dates.',
      q: 'titles, target names and reasons',
      noun: 'findings',
      params: {
        event_type: { filter: 'event_type', description: 'Action type as published, e.g. 補助金 返還命令, 課徴金 / 罰則, 業務改善命令' },
        ministry: { filter: 'ministry', description: 'Authority or bureau that published the finding (substring), e.g. 会計検査院, 厚生労働省' },
        prefecture: 'prefecture',
        legal_basis: { filter: 'legal_basis', description: 'Statute named in the finding (substring)' },
        program_name_hint: { filter: 'program_name_hint', description: 'Program name as published in the finding (substring)' },
        recipient_houjin_bangou: { filter: 'recipient_houjin_bangou', description: 'Corporate number (13 digits) of the recipient' },
        min_improper_grant_yen: { filter: 'min_improper_grant_yen', description: 'Lowest improper amount, yen' },
        max_improper_grant_yen: { filter: 'max_improper_grant_yen', description: 'Highest improper amount, yen' },
        disclosed_from: { filter: 'disclosed_from', description: 'Earliest action/disclosure date' },
        disclosed_until: { filter: 'disclosed_until', description: 'Latest action/disclosure date' },
      },
    },
    get: {
      name: 'get_enforcement_case',
      title: 'Get one enforcement finding',
      description: 'Fetch one improper-use finding or administrative action by its id.',
      id: { name: 'case_id', description: 'Finding id as returned by search_enforcement_cases' },
    },
  },
});
