// search_loans_am: loan products with no-collateral / no-guarantor switches.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { AM_EMPTY, amRows, f } from '../lib/fields.ts';
import { recordsHeld } from '../lib/coverage.ts';
import { insufficientData } from '../lib/no-data.ts';
import { compact } from '../lib/search.ts';

export const searchLoansAm = defineTool({
  name: 'search_loans_am',
  title: 'Search loans (entity store)',
  description:
    'Loan products with switches for no collateral, no personal or no third-party guarantor, plus kind, amount and lender. Same records as search_loan_programs: use this one for the no-guarantor switches.',
  input: {
    loan_kind: z.enum(['ippan', 'trou', 'seirei', 'sanko', 'sogyo', 'rinsei', 'saigai', 'shingiseikyu', 'kiki', 'other']).optional().describe('Loan kind'),
    no_collateral: z.boolean().default(false).describe('Only loans without collateral'),
    no_personal_guarantor: z.boolean().default(false).describe('Only loans without a personal guarantor'),
    no_third_party_guarantor: z.boolean().default(false).describe('Only loans without a third-party guarantor'),
    max_amount_yen: z.number().int().min(0).optional().describe('Highest amount, yen'),
    min_amount_yen: z.number().int().min(0).optional().describe('Lowest amount, yen'),
    lender_entity_id: z.string().max(200).optional().describe('Lender id or name'),
    name_query: z.string().max(200).optional().describe('Name keywords'),
    limit: f.limit(100, 10, 'loans'),
  },
  output: amRows(),
  annotations: READ_ONLY,
  rows: ['results'],
  empty: AM_EMPTY,
  notApplied: {
    // The catalogue's loan_type holds other words (special_rate, 国民生活事業) for two loans: every kind answered empty.
    loan_kind: 'loan kinds (sogyo, saigai, …) are not recorded for the loans held: put the kind in name_query (創業, 災害)',
  },
  async run(call, a) {
    // A false switch means "no constraint", so it is left out rather than sent as false.
    const out = {
      ...(await call.api.am.loans(
        compact({
          no_collateral: a.no_collateral || undefined,
          no_personal_guarantor: a.no_personal_guarantor || undefined,
          no_third_party_guarantor: a.no_third_party_guarantor || undefined,
          max_amount_yen: a.max_amount_yen,
          min_amount_yen: a.min_amount_yen,
          provider: a.lender_entity_id,
          name_query: a.name_query,
          limit: a.limit,
        }),
      )),
    };
    if ((out.results as unknown[] | undefined)?.length) return out;
    // Empty is not "none": say what was searched, and that the switches read terms most loans do not publish.
    const held = await recordsHeld(call.api, 'loans_mutual_aid');
    const note = typeof out.retrieval_note === 'string' ? out.retrieval_note : '';
    const switches = ['no_collateral', 'no_personal_guarantor', 'no_third_party_guarantor'].filter((k) => a[k as keyof typeof a] === true);
    const coverage = { records_held: held ?? null, switches_set: switches };
    const hint = "Drop the switches, search by name_query (e.g. 創業, 設備) and read each loan's terms at its source_url.";
    if (switches.length > 0) return insufficientData(`No loan passes ${switches.join(', ')}: ${note}. ${hint}`, coverage, { ...AM_EMPTY });
    return { ...out, coverage, explanation: `No loan matched these filters among the ${held ?? '?'} loan and mutual-aid records held. ${hint}` };
  },
});
