// Pieces the specs share: the field types of the dataset files (most fields
// are optional and may be null), checks, and a few common filters.
import { Type, type TSchema } from 'typebox';
import { HOUJIN_BANGOU_PATTERN, isValidHoujinBangou } from '../houjin.ts';
import type { Filter, Row } from './spec.ts';
import { Short } from './params.ts';

export const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
export const Str = opt(Type.String());
// ISO 8601 date, or a date-time as published (one law's last_amended_on carries a time).
export const DateStr = opt(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9]{2}:?[0-9]{2})?)?$' }));
export const Num = opt(Type.Number());
export const Int = opt(Type.Integer());
export const Bool = opt(Type.Boolean());
export const StrList = opt(Type.Array(Type.String()));
export const Houjin = opt(Type.String({ pattern: HOUJIN_BANGOU_PATTERN }));
export const Id = Type.String({ minLength: 1, maxLength: 200 });

/** A check that the corporate number in `field`, when present, has a valid check digit. */
export const checkHoujin =
  (...fields: string[]) =>
  (r: Row): string | null => {
    for (const field of fields) {
      const v = r[field];
      if (typeof v === 'string' && !isValidHoujinBangou(v)) return `field ${field}: check digit does not match`;
    }
    return null;
  };

/** Tier S first, then A, B, C, X, then none (an ORDER BY term over alias `r`). */
export const TIER_ORDER_SQL = "coalesce(instr('SABCX', r.tier), 6)";

/** The exact-prefecture filter. */
export const prefectureFilter = (): Filter => ({
  name: 'prefecture',
  type: Short('Exact prefecture name'),
  sql: 'r.prefecture = ?',
  vocabulary: 'prefecture',
});
