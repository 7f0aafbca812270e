// subsidy_combo_finder: subsidy + loan + tax measure combinations that no
// exclusion rule forbids, around a keyword or a seed program.
import { z } from 'zod';
import { defineTool, READ_ONLY, ToolInputError, type Row } from '../lib/define.ts';
import { todayJst } from '../lib/dates.ts';
import { f, o } from '../lib/fields.ts';
import { prefectureArg } from '../lib/prefecture.ts';
import { compact, rowsOf } from '../lib/search.ts';

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
  output: { results: o.rows() },
  annotations: READ_ONLY,
  empty: { results: [] },
  async run(call, a) {
    if (!a.keyword && !a.unified_id) throw new ToolInputError('empty_input', 'Pass keyword or unified_id', 'e.g. keyword=設備投資');
    const prefecture = prefectureArg(call, a.prefecture);
    if (prefecture && a.unified_id)
      call.warn({
        code: 'unsupported_filter',
        field: 'prefecture',
        message: 'unified_id names the seed, so there is no search to narrow; prefecture was not applied',
      });
    const seeds: Row[] = a.unified_id
      ? [await call.api.programs.get(a.unified_id)]
      : rowsOf(await call.api.programs.search(compact({ q: a.keyword, prefecture, fields: 'minimal' as const, limit: a.limit * 2 })));
    // The loan and the tax measure are searched by the same words as the subsidy: none matching leaves the
    // slot empty with the reason, never an unrelated first record (decision 0392).
    const words = a.keyword ?? (typeof seeds[0]?.primary_name === 'string' ? seeds[0].primary_name : undefined);
    const [loans, tax] = await Promise.all([
      call.api.loans.search(compact({ q: words, plan_type: 'loan' as const, limit: a.limit })).then(rowsOf),
      call.api.taxRulesets.search(compact({ q: words, effective_on: todayJst(), limit: a.limit })).then(rowsOf),
    ]);
    const combos: Row[] = [];
    for (const [i, seed] of seeds.entries()) {
      if (combos.length >= a.limit) break;
      const loan = loans.length > 0 ? loans[i % loans.length] : null;
      const taxRule = tax.length > 0 ? tax[i % tax.length] : null;
      const ids = [seed.unified_id, loan?.unified_id].filter((x): x is string => typeof x === 'string');
      const check = await call.api.exclusions.check({ program_ids: ids });
      if (check.hits.length > 0) continue;
      const covered = check.covered_program_ids ?? [];
      combos.push({
        subsidy: seed,
        loan,
        tax_measure: taxRule,
        why: {
          subsidy: a.unified_id ? 'the seed programme' : `matches "${words}"`,
          loan: loan ? `matches "${words}"` : `no loan held matches "${words}"`,
          tax_measure: taxRule ? `matches "${words}"` : `no tax ruleset held matches "${words}"`,
        },
        exclusion_check: covered.length > 0 ? 'no rule held is triggered' : 'no rule held names these programmes: compatibility unknown',
      });
    }
    return {
      results: combos,
      coverage: { matched_by: words ?? null, loans_matching: loans.length, tax_rulesets_matching: tax.length },
      explanation:
        combos.length === 0
          ? 'No conflict-free combination found for this seed.'
          : 'Each item says why it is there; the combination rules cover few programmes (see exclusion_check). Verify conditions on each source.',
    };
  },
});
