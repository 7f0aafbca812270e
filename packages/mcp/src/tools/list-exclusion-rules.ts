// list_exclusion_rules: the incompatibility / prerequisite rule catalogue,
// narrowed here by rule kind or by one program (the endpoint lists all rules).
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../lib/define.ts';
import { o } from '../lib/fields.ts';

const RULE_KINDS = [
  'exclude',
  'prerequisite',
  'absolute',
  'combine_ok',
  'conditional_reduction',
  'same_asset_exclusive',
  'cross_tier_same_asset',
  'area_allocation',
  'cross_tier_loan_interest',
  'entity_scope_restriction',
  'mutex_certification',
] as const;

type Rule = {
  kind: string;
  program_a: string | null;
  program_b: string | null;
  program_b_group?: (string | null)[] | null;
  extra?: Record<string, unknown> | null;
  [k: string]: unknown;
};

/** Kinds a rule answers to: its normalised kind, the upstream kind kept in `extra`, and `exclude` for any mutex. */
function ruleKinds(rule: Rule): Set<string> {
  const kinds = new Set<string>([rule.kind]);
  const upstream = rule.extra?.upstream_kind ?? rule.extra?.kind ?? rule.extra?.original_kind;
  if (typeof upstream === 'string') kinds.add(upstream);
  if (rule.kind === 'mutex') kinds.add('exclude');
  return kinds;
}

export function filterRules<R extends Rule>(rules: R[], kinds: readonly string[] | undefined, programId: string | undefined): R[] {
  return rules.filter((r) => {
    if (kinds && kinds.length > 0) {
      const have = ruleKinds(r);
      if (!kinds.some((k) => have.has(k))) return false;
    }
    if (programId) {
      const members = [r.program_a, r.program_b, ...(r.program_b_group ?? [])];
      const candidates = Object.values(r.extra ?? {}).flatMap((v) => (Array.isArray(v) ? v : [v]));
      if (!members.includes(programId) && !candidates.includes(programId)) return false;
    }
    return true;
  });
}

export const listExclusionRules = defineTool({
  name: 'list_exclusion_rules',
  title: 'List exclusion rules',
  description:
    'The combination rules held (mutual exclusions, prerequisites, caps), by kind or by the programme they name. Use to see which rules exist. Not to test a combination (check_exclusions).',
  input: {
    kind: z.array(z.enum(RULE_KINDS)).max(11).optional().describe('Rule kinds (exclude: every mutual exclusion)'),
    program_id: z.string().max(200).optional().describe('Only rules naming this programme'),
    verbose: z.boolean().default(false).describe('Include source notes and extra fields'),
  },
  output: { results: o.rows(), total: o.total() },
  annotations: READ_ONLY,
  empty: { results: [], total: 0 },
  async run(call, a) {
    const rules = await call.api.exclusions.rules();
    const kept = filterRules(rules as Rule[], a.kind, a.program_id).map((r) => {
      if (a.verbose) return r;
      const { source_notes: _notes, extra: _extra, ...rest } = r;
      return rest;
    });
    return { results: kept, total: kept.length, ...(kept.length === 0 ? { explanation: 'No rule matches these filters.' } : {}) };
  },
});
