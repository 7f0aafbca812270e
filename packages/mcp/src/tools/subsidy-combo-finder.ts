// subsidy_combo_finder: subsidy + loan + tax measure combinations that no
// exclusion rule forbids, around a keyword or a seed program.
import { z } from 'zod';
import { defineTool, READ_ONLY, ToolInputError, type Row } from '../lib/define.ts';
import { todayJst } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { matchProfile } from '../lib/match.ts';
import { compact, rowsOf } from '../lib/search.ts';

/** The engine's reasons as one phrase. */
const notesOf = (v: unknown): string =>
  Array.isArray(v)
    ? v
        .map((n) => (n && typeof n === 'object' ? String((n as { detail?: unknown }).detail ?? '') : ''))
        .filter(Boolean)
        .join('; ')
    : '';

export const subsidyComboFinder = defineTool({
  name: 'subsidy_combo_finder',
  title: 'Find program combinations',
  description:
    'Combinations of a subsidy, a loan and a tax measure around a keyword or a seed programme, each checked against the combination rules. Use to propose a funding mix.',
  input: {
    keyword: z.string().max(200).optional().describe('Keyword, e.g. 設備投資'),
    unified_id: z.string().max(100).optional().describe('Seed program id'),
    prefecture: f.prefecture('Prefecture of the keyword search'),
    limit: f.limit(5, 3, 'combinations'),
  },
  output: {
    results: z
      .array(z.object({ subsidy: z.string(), loan: z.string().nullable(), tax_measure: z.string().nullable(), exclusion_check: z.string() }).passthrough())
      .describe('Combinations, by the ids of the rows below'),
    subsidies: o.rows(),
    loans: o.rows(),
    tax_measures: o.rows(),
  },
  annotations: READ_ONLY,
  rows: ['subsidies', 'loans', 'tax_measures'],
  empty: { results: [], subsidies: [], loans: [], tax_measures: [] },
  async run(call, a) {
    if (!a.keyword && !a.unified_id) throw new ToolInputError('empty_input', 'Pass keyword or unified_id', 'e.g. keyword=設備投資');
    const prefecture = prefectureArg(call, a.prefecture);
    if (prefecture && a.unified_id)
      call.warn({
        code: 'unsupported_filter',
        field: 'prefecture',
        message: 'unified_id names the seed, so there is no search to narrow; prefecture was not applied',
      });
    // The subsidies: the seed, or the programme search's first rows for the keyword (the one search engine).
    // A loan or a tax measure found by the search is no subsidy: those fill their own slots.
    const seeds: Row[] = a.unified_id
      ? [await call.api.programs.get(a.unified_id)]
      : rowsOf(await call.api.programs.search(compact({ q: a.keyword, prefecture, fields: 'default' as const, limit: a.limit * 3 }))).filter(
          (r) => r.program_kind !== 'loan' && r.program_kind !== 'tax_measure',
        );
    // The loan and the tax measure are searched by the same words as the subsidy: none matching leaves the
    // slot empty with the reason, never an unrelated first record (decision 0392).
    const words = a.keyword ?? (typeof seeds[0]?.primary_name === 'string' ? seeds[0].primary_name : undefined);
    const [literalLoans, literalTax] = await Promise.all([
      call.api.loans.search(compact({ q: words, plan_type: 'loan' as const, limit: a.limit })).then(rowsOf),
      call.api.taxRulesets.search(compact({ q: words, effective_on: todayJst(), limit: a.limit })).then(rowsOf),
    ]);
    // The record-set searches match the words literally (省エネ設備 names no loan). An empty slot is filled from
    // the matching engine's programmes of that kind for the same words read as a need, each with the engine's
    // reasons; rows it flags as naming other industries or applicants are set aside, as in every composite.
    const engine =
      a.keyword && (literalLoans.length === 0 || literalTax.length === 0) ? await matchProfile(call.api, { prefecture, need: a.keyword, limit: 50 }) : null;
    const ofKind = (kind: string) => (engine?.rows ?? []).filter((r) => r.program_kind === kind).slice(0, a.limit);
    const byEngine = (rows: Row[]): Row[] => rows.map((r) => ({ ...r, why_engine: notesOf(r.reasons) }));
    const loans: Row[] = literalLoans.length > 0 ? literalLoans : byEngine(ofKind('loan'));
    const tax: Row[] = literalTax.length > 0 ? literalTax : byEngine(ofKind('tax_measure'));
    const combos: Row[] = [];
    const used = new Set<Row>();
    for (const [i, seed] of seeds.entries()) {
      if (combos.length >= a.limit) break;
      const others = loans.filter((l) => l.unified_id !== seed.unified_id);
      const loan = others.length > 0 ? others[i % others.length] : null;
      const taxRule = tax.length > 0 ? tax[i % tax.length] : null;
      const ids = [seed.unified_id, loan?.unified_id].filter((x): x is string => typeof x === 'string');
      const check = await call.api.exclusions.check({ program_ids: ids });
      if (check.hits.length > 0) continue;
      const covered = check.covered_program_ids ?? [];
      for (const row of [seed, loan, taxRule]) if (row) used.add(row);
      combos.push({
        subsidy: String(seed.unified_id),
        loan: loan ? String(loan.unified_id) : null,
        tax_measure: taxRule ? String(taxRule.unified_id) : null,
        exclusion_check: covered.length > 0 ? 'no rule held is triggered' : 'no rule held names these programmes: compatibility unknown',
      });
    }
    // Each row once, in the section of its kind, with why it is there.
    const listed = (rows: Row[], why: string) =>
      rows
        .filter((r) => used.has(r))
        .map(({ why_engine, reasons: _reasons, ...r }) => ({
          ...r,
          why: typeof why_engine === 'string' && why_engine ? `the matching engine: ${why_engine}` : why,
        }));
    const matching = `matches "${words}"`;
    return {
      results: combos,
      subsidies: listed(seeds, a.unified_id ? 'the seed programme' : `the programme search's rows for "${words}"`),
      loans: listed(loans, matching),
      tax_measures: listed(tax, matching),
      coverage: {
        matched_by: words ?? null,
        loans_matching: literalLoans.length,
        tax_rulesets_matching: literalTax.length,
        ...(engine
          ? { filled_by_the_matching_engine: { loans: literalLoans.length === 0 ? loans.length : 0, tax_measures: literalTax.length === 0 ? tax.length : 0 } }
          : {}),
      },
      explanation:
        combos.length === 0
          ? 'No conflict-free combination found for this seed.'
          : [
              'Each combination names its rows by id; each row says why it is there; the combination rules cover few programmes (see exclusion_check).',
              literalLoans.length === 0
                ? `No loan name matches "${words}"${loans.length > 0 ? ": the loan slot holds the matching engine's loans for it" : ''}.`
                : '',
              literalTax.length === 0
                ? `No tax ruleset name matches "${words}"${tax.length > 0 ? ": the tax slot holds the matching engine's tax measures for it" : ''}.`
                : '',
              'Verify conditions on each source.',
            ]
              .filter(Boolean)
              .join(' '),
    };
  },
});
