// Certification programs: a projection of programs (kind certification).
// Their search tool is the entity-graph one (search_certifications over
// /v1/am/certifications), so this set has no tools of its own.
import { Type } from 'typebox';
import { defineRecordSet } from './spec.ts';
import { Str, Num, Bool, Id, TIER_ORDER_SQL, prefectureFilter } from './fields.ts';
import { Literals, Short } from './params.ts';
import { likeContains } from '../text-query.ts';

export default defineRecordSet({
  name: 'certifications',
  label: 'Certification',
  table: 'certifications',
  file: 'certifications',
  idField: 'unified_id',
  schema: Type.Object({
    unified_id: Id,
    name: Type.String({ minLength: 1 }),
    program_kind: Str,
    provider: Str,
    authority_level: Str,
    prefecture: Str,
    tier: Str,
    amount_max_man_yen: Num,
    source_url: Str,
    source_fetched_at: Str,
    in_public_index: Bool,
    record_origin: Str,
  }),
  columns: {
    unified_id: 'text',
    name: 'text',
    program_kind: 'text',
    provider: 'text',
    authority_level: 'text',
    prefecture: 'text',
    tier: 'text',
    amount_max_man_yen: 'real',
    source_url: 'text',
    source_fetched_at: 'text',
    in_public_index: 'bool',
    record_origin: 'text',
  },
  unique: ['unified_id'],
  indexes: ['prefecture'],
  searchable: {
    name: { weight: 10, short: true },
    other: { weight: 1, from: ['provider', 'program_kind'], short: true },
  },

  row: { $id: 'Certification' },
  search: {
    operationId: 'searchCertifications',
    summary: 'Search certification programs by free text, prefecture, authority level, tier, certifying body',
    responseId: 'CertificationSearchResponse',
    filters: [
      prefectureFilter(),
      { name: 'authority_level', type: Literals(['national', 'prefecture', 'municipality', 'financial']), sql: 'r.authority_level = ?' },
      { name: 'tier', type: Literals(['S', 'A', 'B', 'C', 'X']), sql: 'r.tier = ?' },
      {
        name: 'provider',
        aliases: ['authority'],
        type: Short('Substring of the certifying body (provider); only 14 of 166 certifications name one, the others never match'),
        sql: "r.provider LIKE ? ESCAPE '\\'",
        bind: likeContains,
      },
    ],
    order: `${TIER_ORDER_SQL}, r.name, r.unified_id`,
  },
  detail: {
    operationId: 'getCertification',
    summary: 'One certification program by unified_id',
    keys: ['unified_id'],
  },
});
