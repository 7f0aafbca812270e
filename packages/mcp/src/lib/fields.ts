// Field builders for tool inputs (each with its description) and output
// shape fragments, so the same field reads the same in every tool.
import { z } from 'zod';
import type { Payload } from './define.ts';

export const f = {
  limit: (max: number, dflt: number, what = 'results') => z.number().int().min(1).max(max).default(dflt).describe(`Most ${what} to return (clamped)`),
  offset: () => z.number().int().min(0).max(1_000_000).default(0).describe('Rows to skip'),
  prefecture: (what = 'Prefecture name') => z.string().max(20).optional().describe(`${what}, e.g. 東京都`),
  q: (what: string) => z.string().max(500).optional().describe(`Keywords in ${what}`),
  date: (what: string) =>
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .optional()
      .describe(`${what} (YYYY-MM-DD)`),
  asOf: () =>
    z
      .string()
      .regex(/^(today|\d{4}-\d{2}-\d{2})$/, "must be 'today' or YYYY-MM-DD")
      .default('today')
      .describe('Reference date (today or YYYY-MM-DD)'),
  houjin: (what = 'Corporate number (法人番号, 13 digits)') =>
    z
      .string()
      .regex(/^\d{13}$/, 'must be 13 digits')
      .optional()
      .describe(what),
  profile: () =>
    z.record(z.unknown()).describe('Business profile: prefecture, industry_jsic, employee_count, capital_yen, revenue_yen, is_sole_proprietor, houjin_bangou'),
  /** The profile the tax predicates read: the fields most rulesets need, in the documented (yen) names. */
  taxProfile: () =>
    z.record(z.unknown()).describe('Business profile, e.g. capital_yen, blue_form_return_filed, taxable_sales_yen_base_period, asset_acquisition_price_yen'),
  /** What the company wants, in its own words: the matching engine reads it through the programme vocabulary. */
  need: () => z.string().max(300).optional().describe('What the company wants, in its words (店舗を改装したい, 省エネ設備に更新)'),
  region: () => z.string().max(40).optional().describe('national, a block (関東) or a prefecture'),
};

/** Output shape fragments. */
export const o = {
  rows: () => z.array(z.record(z.unknown())).describe('Matching records'),
  total: () => z.number().int().describe('Matching records before paging'),
  record: () => z.record(z.unknown()).nullable().describe('The record'),
};

export const searchOutput = () => ({
  total: o.total(),
  limit: z.number().int().optional().describe('Page size used'),
  offset: z.number().int().optional().describe('Offset used'),
  results: o.rows(),
});
export const SEARCH_EMPTY: Payload = { total: 0, results: [] };
export const RECORD_EMPTY: Payload = { record: null };

/** The output of the entity-store tools: rows and (usually) a total. */
export const amRows = () => ({ total: z.number().int().optional().describe('Matching records'), results: o.rows() });
export const AM_EMPTY: Payload = { total: 0, results: [] };
