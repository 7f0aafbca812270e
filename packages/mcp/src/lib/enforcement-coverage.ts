// The sentence that goes with an enforcement check: a company not found is
// not found among the findings held, and a corporate number can only match
// the findings that name one (decision 0392).
import type { Row } from './define.ts';

export interface EnforcementCoverage {
  findings: number;
  with_houjin_bangou: number;
  action_date_from: string | null;
  action_date_to: string | null;
}

/** The coverage block of a /v1/am/enforcement answer, if it has one. */
export function coverageOf(body: Row): EnforcementCoverage | null {
  const c = body.coverage as EnforcementCoverage | undefined;
  return c && typeof c.findings === 'number' ? c : null;
}

/** "Not found among the 1,485 findings of 2013-04-01..2025-03-31; only 300 name a corporate number." */
export function notFoundSentence(c: EnforcementCoverage | null, byNumber: boolean): string {
  if (!c) return 'No enforcement record names this company.';
  const period = c.action_date_from && c.action_date_to ? ` dated ${c.action_date_from} to ${c.action_date_to}` : '';
  const numbers = byNumber ? `; only ${c.with_houjin_bangou} of them name a corporate number, so a number check cannot clear a company` : '';
  return `Not found among the ${c.findings} findings held${period}${numbers}. This is not proof that none exists.`;
}
