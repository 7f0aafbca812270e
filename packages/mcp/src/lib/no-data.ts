// Record sets this deployment does not hold (court decisions, qualified-
// invoice registrants, acceptance statistics). A tool over one answers with
// status `no_data`, its empty payload keys, an explanation saying where to
// look instead, and the reference surface's `no_matching_records` error
// code; nothing is invented.
import type { Payload } from './define.ts';

export const NO_DATA = 'no_data';

export const COURT_NOTE =
  'This service holds no court decisions: the catalogue has laws, law articles, enforcement findings, case studies, tax rulesets, loans and bids, but no judgments.';
export const INVOICE_NOTE =
  'This service holds no qualified-invoice-issuer (適格請求書発行事業者) registrations; look the number up at the National Tax Agency publication site (https://www.invoice-kohyo.nta.go.jp/).';
export const ACCEPTANCE_NOTE =
  'This service holds no application/acceptance statistics (the upstream statistics table is not published); no rounds can be listed.';

/** The payload of a tool over a record set this deployment does not hold. */
export function noData(message: string, hint: string, payload: Payload): Payload {
  // What was covered: a record set of which this deployment holds nothing.
  const coverage = { records_held: 0, ...((payload.coverage as Payload | undefined) ?? {}) };
  return { ...payload, status: NO_DATA, explanation: message, coverage, error: { code: 'no_matching_records', message, hint } };
}

/** The sentence a no-data tool's description ends with. */
export const noDataSentence = (what: string): string => `This deployment holds no ${what}: every call answers status no_data; do not rely on it.`;

export const isNoData = (payload: Payload): boolean => payload.status === NO_DATA;

/**
 * A tool whose catalogue cannot support an answer (too few rules, too few
 * records carrying the field it would match on) says so with this status and
 * its coverage instead of a list an agent would read as the answer (decision 0392).
 */
export const INSUFFICIENT_DATA = 'insufficient_data';

/** The payload of an answer the catalogue cannot support: empty payload keys, the reason, what was covered. */
export function insufficientData(explanation: string, coverage: Payload, payload: Payload): Payload {
  return { ...payload, status: INSUFFICIENT_DATA, explanation, coverage };
}
