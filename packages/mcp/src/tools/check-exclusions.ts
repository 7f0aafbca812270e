// check_exclusions: the exclusion rules a combination of programs triggers,
// and what the check cannot decide. The rules held are few (mostly farm
// programmes), so an empty answer for programmes no rule names is
// insufficient_data, never "compatible" (decision 0392).
import { z } from 'zod';
import { defineTool, READ_ONLY, type Row } from '../lib/define.ts';
import { o } from '../lib/fields.ts';
import { insufficientData } from '../lib/no-data.ts';

export const checkExclusions = defineTool({
  name: 'check_exclusions',
  title: 'Check a program combination',
  description:
    'Test programmes (ids or slugs) against the combination rules: conflicts (hits) and rules hinging on a fact to check (to_check). Use before recommending a combination. Few programmes are named by a rule: then insufficient_data, not compatibility.',
  input: {
    program_ids: z.array(z.string().min(1).max(200)).min(1).max(50).describe('Programme ids or slugs'),
  },
  output: {
    program_ids: z.array(z.string()),
    hits: o.rows(),
    to_check: o.rows(),
    checked_rules: z.number().int(),
  },
  annotations: READ_ONLY,
  empty: { program_ids: [], hits: [], to_check: [], checked_rules: 0 },
  async run(call, a) {
    const body = await call.api.exclusions.check({ program_ids: a.program_ids });
    const toCheck = body.to_check ?? [];
    const covered = body.covered_program_ids ?? [];
    const uncovered = body.program_ids.filter((id) => !covered.includes(id));
    // Where to check what no rule decides: each such programme's name and source, so the next step is citable.
    const ids = uncovered.filter((id) => /^UNI-[0-9a-f]{10}$/.test(id));
    const sources =
      ids.length > 0
        ? ((await call.api.programs.batch({ unified_ids: ids })).results as Row[]).map((r) => ({
            unified_id: r.unified_id,
            primary_name: r.primary_name,
            official_url: r.official_url ?? null,
          }))
        : [];
    const coverage = {
      rules_held: body.checked_rules,
      programs_named_by_a_rule: covered,
      programs_no_rule_names: uncovered,
      ...(sources.length > 0 ? { where_to_check: sources } : {}),
    };
    const payload = { program_ids: body.program_ids, hits: body.hits, to_check: toCheck, checked_rules: body.checked_rules, coverage };
    if (body.hits.length > 0) {
      return { ...payload, result_count: body.hits.length, explanation: `${body.hits.length} rule(s) triggered; each hit cites its source.` };
    }
    // A programme no rule names cannot be in a conflict the rules know of: with nothing to check either, the
    // combination is unknown, not confirmed, whether or not its partners are named by some rule.
    if (uncovered.length > 0 && toCheck.length === 0) {
      const whom =
        covered.length === 0
          ? `None of these programmes is named by any of the ${body.checked_rules} combination rules held`
          : `No rule among the ${body.checked_rules} held names ${uncovered.join(', ')} (none is triggered by ${covered.join(', ')})`;
      return insufficientData(
        `${whom}, so whether they combine is unknown, not confirmed; check each programme's own guidelines (coverage.where_to_check names each with its source).`,
        coverage,
        {
          program_ids: body.program_ids,
          hits: [],
          to_check: [],
          checked_rules: body.checked_rules,
          // A name or slug no rule knows: its record (and source) is found by search, then checked by id.
          suggested_actions: uncovered.filter((id) => !ids.includes(id)).map((name) => `search_programs q=${name}, then check_exclusions by its unified_id`),
        },
      );
    }
    const unchecked = uncovered.length > 0 ? ` No rule names ${uncovered.join(', ')}: not checked.` : '';
    return {
      ...payload,
      result_count: toCheck.length,
      explanation:
        toCheck.length > 0
          ? `No conflict found, but ${toCheck.length} rule(s) hinge on a fact the check cannot know (to_check).${unchecked}`
          : `No rule among the ${body.checked_rules} held is triggered by ${covered.join(', ')}.${unchecked}`,
    };
  },
});
