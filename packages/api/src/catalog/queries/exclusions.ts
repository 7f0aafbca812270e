// Exclusion rules and the combination check (docs/decisions/0042-exclusion-check.md):
// `mutex` (and `conditional_reduction` and unknown kinds) hit when 2+ of the
// rule's programs are selected; `prerequisite` hits when 1+ is selected.
import type { CatalogDatabase } from '../db.ts';

/** One program position of a rule and every key that identifies it (resolved at ingest, ingest/loaders/exclusion-rules.ts). */
export interface RuleLeg {
  slug: string | null;
  name: string | null;
  unified_ids: string[];
}

export interface ExclusionRule {
  rule_id: string;
  kind: string;
  severity: string | null;
  program_a: string | null;
  program_b: string | null;
  program_b_group: string[];
  description: string | null;
  source_notes: string | null;
  source_urls: string[];
  extra: Record<string, unknown>;
}

interface RuleRow {
  rule_id: string;
  kind: string;
  severity: string | null;
  program_a: string | null;
  program_b: string | null;
  program_b_group: string;
  description: string | null;
  source_notes: string | null;
  source_urls: string;
  extra: string;
  legs: string;
}

export interface LoadedRule {
  rule: ExclusionRule;
  legs: RuleLeg[];
}

/** All rules with their resolved legs, in rule_id order. The set is small and read-only: load once. */
export function loadRules(db: CatalogDatabase): LoadedRule[] {
  return db.all<RuleRow>('SELECT * FROM exclusion_rules ORDER BY rule_id').map((r) => ({
    rule: {
      rule_id: r.rule_id,
      kind: r.kind,
      severity: r.severity,
      program_a: r.program_a,
      program_b: r.program_b,
      program_b_group: JSON.parse(r.program_b_group) as string[],
      description: r.description,
      source_notes: r.source_notes,
      source_urls: JSON.parse(r.source_urls) as string[],
      extra: JSON.parse(r.extra) as Record<string, unknown>,
    },
    legs: JSON.parse(r.legs) as RuleLeg[],
  }));
}

export interface ExclusionHit {
  rule_id: string;
  kind: string;
  severity: string | null;
  programs_involved: string[];
  description: string | null;
  source_urls: string[];
}

/** The selected ids that a leg matches: by unified_id, upstream slug or Japanese name. */
function matchLeg(leg: RuleLeg, selection: readonly string[]): string[] {
  return selection.filter((id) => leg.unified_ids.includes(id) || id === leg.slug || id === leg.name);
}

/** Order-preserving de-duplication (first occurrence wins). */
export function dedupe(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

export function checkExclusions(rules: readonly LoadedRule[], selection: readonly string[]): ExclusionHit[] {
  const hits: ExclusionHit[] = [];
  for (const { rule, legs } of rules) {
    const matchedLegs = legs.map((leg) => matchLeg(leg, selection)).filter((m) => m.length > 0);
    const needed = rule.kind === 'prerequisite' ? 1 : 2;
    if (matchedLegs.length < needed) continue;
    hits.push({
      rule_id: rule.rule_id,
      kind: rule.kind,
      severity: rule.severity,
      programs_involved: dedupe(matchedLegs.flat()),
      description: rule.description,
      source_urls: rule.source_urls,
    });
  }
  return hits;
}
