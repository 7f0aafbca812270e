// dd_profile_am: what the catalogue holds on a corporate number.
import { z } from 'zod';
import { defineTool, READ_ONLY, ToolInputError, type Row } from '../lib/define.ts';
import { f, o } from '../lib/fields.ts';
import { rowsOf } from '../lib/search.ts';
import { coverageOf, notFoundSentence } from '../lib/enforcement-coverage.ts';

export const ddProfileAm = defineTool({
  name: 'dd_profile_am',
  title: 'Due-diligence profile of a company',
  description:
    'What the catalogue holds on one corporate number: enforcement history and exclusions in force, case studies, bids won. Use for due diligence on a company. Invoice registration is not held.',
  input: {
    houjin_bangou: z.string().min(1).max(64).describe('Corporate number (13 digits)'),
    include_adoptions: z.boolean().default(true).describe('Include case studies / awards'),
    adoption_limit: f.limit(50, 20, 'case studies'),
  },
  output: {
    houjin_bangou: z.string().describe('The number'),
    enforcement: z.record(z.unknown()).nullable().describe('Enforcement check'),
    adoptions: o.rows(),
    bids_won: o.rows(),
    invoice_registration: z.record(z.unknown()).describe('Invoice registration status'),
  },
  annotations: READ_ONLY,
  empty: { houjin_bangou: '', enforcement: null, adoptions: [], bids_won: [], invoice_registration: {} },
  async run(call, a) {
    const number = a.houjin_bangou.replace(/[-\s]/g, '');
    if (!/^\d{13}$/.test(number)) throw new ToolInputError('invalid_field', 'houjin_bangou must be 13 digits', 'e.g. 1234567890123');
    const [enforcement, adoptions, bids] = await Promise.all([
      call.api.am.enforcement({ houjin_bangou: number }) as Promise<Row>,
      a.include_adoptions ? call.api.caseStudies.search({ houjin_bangou: number, limit: a.adoption_limit }).then(rowsOf) : Promise.resolve([]),
      call.api.bids.search({ winner_houjin_bangou: number, limit: 20 }).then(rowsOf),
    ]);
    return {
      houjin_bangou: number,
      enforcement,
      adoptions,
      bids_won: bids,
      invoice_registration: { status: 'not_held', note: 'Invoice registrations are not in this catalogue; check https://www.invoice-kohyo.nta.go.jp/' },
      result_count: adoptions.length + bids.length + (enforcement.found ? 1 : 0),
      ...(coverageOf(enforcement) ? { coverage: { enforcement: coverageOf(enforcement) } } : {}),
      explanation: `${adoptions.length} case stud(ies), ${bids.length} bid(s) won; enforcement: ${enforcement.found ? 'record found' : notFoundSentence(coverageOf(enforcement), true)}`,
    };
  },
});
