// Exclusion rules and the combination check (decisions 0042, 0393): a rule
// pits its side `a` (its own programme) against side `b`. `prerequisite`
// hits when a programme of side a is selected; `mutex`, `conditional_reduction`
// and unknown kinds hit when a programme of side a and one of side b are both
// selected (never two of the same side). A leg that is a class of programmes
// or a condition on the applicant cannot be matched by an id: a rule that
// needs one is reported "to check" when its other side is selected, never
// as a conflict.
import type { CatalogDatabase } from '../db.ts';

/** One program position of a rule and every key that identifies it (resolved at ingest, ingest/loaders/exclusion-rules.ts). */
export interface RuleLeg {
  slug: string | null;
  name: string | null;
  unified_ids: string[];
  /** The rule's own programme (a) or what it is checked against (b); legs of an older catalogue: the first is a. */
  side?: 'a' | 'b';
  /** programmes (matched by id, slug or name), a class of programmes or a condition on the applicant (matched by nothing). */
  refers_to?: 'programmes' | 'class' | 'condition';
  /** The reviewed reason or label (ingest/loaders/exclusion-rule-references.ts). */
  note?: string;
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

/** What the selection must still establish before a rule can be ruled out: a class or a condition it cannot match. */
export interface ExclusionToCheck {
  rule_id: string;
  kind: string;
  severity: string | null;
  programs_involved: string[];
  to_check: string[];
  description: string | null;
  source_urls: string[];
}

/** The selected ids that a leg matches: by unified_id, upstream slug or Japanese name (class and condition legs match nothing). */
function matchLeg(leg: RuleLeg, selection: readonly string[]): string[] {
  if (leg.refers_to && leg.refers_to !== 'programmes') return [];
  return selection.filter((id) => leg.unified_ids.includes(id) || id === leg.slug || id === leg.name);
}

/** Order-preserving de-duplication (first occurrence wins). */
export function dedupe(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

const sideOf = (leg: RuleLeg, index: number): 'a' | 'b' => leg.side ?? (index === 0 ? 'a' : 'b');
const unmatchable = (leg: RuleLeg): boolean => leg.refers_to === 'class' || leg.refers_to === 'condition';

interface RuleMatch {
  a: string[];
  b: string[];
  /** Labels of the legs of each side no id can match. */
  openA: string[];
  openB: string[];
}

function matchRule(legs: readonly RuleLeg[], selection: readonly string[]): RuleMatch {
  const m: RuleMatch = { a: [], b: [], openA: [], openB: [] };
  legs.forEach((leg, i) => {
    const side = sideOf(leg, i);
    if (unmatchable(leg)) (side === 'a' ? m.openA : m.openB).push(leg.note ?? leg.name ?? leg.slug ?? '?');
    else (side === 'a' ? m.a : m.b).push(...matchLeg(leg, selection));
  });
  return m;
}

/** A rule hits when its side a is selected and (but for a prerequisite) a programme of its side b too. */
function hitOf(kind: string, m: RuleMatch): boolean {
  if (m.a.length === 0) return false;
  return kind === 'prerequisite' || m.b.length > 0;
}

export function checkExclusions(rules: readonly LoadedRule[], selection: readonly string[]): ExclusionHit[] {
  const hits: ExclusionHit[] = [];
  for (const { rule, legs } of rules) {
    const m = matchRule(legs, selection);
    if (!hitOf(rule.kind, m)) continue;
    hits.push({
      rule_id: rule.rule_id,
      kind: rule.kind,
      severity: rule.severity,
      programs_involved: dedupe([...m.a, ...m.b]),
      description: rule.description,
      source_urls: rule.source_urls,
    });
  }
  return hits;
}

/**
 * Rules the selection may break but the check cannot decide: one side is
 * selected and the other is a class of programmes or a condition on the
 * applicant (for example "a corporation 5+ years past its start" against the
 * new-farmer programmes). Reported so an adviser checks them; never a hit.
 */
export function exclusionsToCheck(rules: readonly LoadedRule[], selection: readonly string[]): ExclusionToCheck[] {
  const out: ExclusionToCheck[] = [];
  for (const { rule, legs } of rules) {
    const m = matchRule(legs, selection);
    if (hitOf(rule.kind, m)) continue;
    const open = m.a.length > 0 ? m.openB : m.b.length > 0 && rule.kind !== 'prerequisite' ? m.openA : [];
    if (open.length === 0) continue;
    out.push({
      rule_id: rule.rule_id,
      kind: rule.kind,
      severity: rule.severity,
      programs_involved: dedupe([...m.a, ...m.b]),
      to_check: open,
      description: rule.description,
      source_urls: rule.source_urls,
    });
  }
  return out;
}

/** The selected ids some rule names as a programme: the part of the selection the rules say anything about. */
export function idsCoveredByRules(rules: readonly LoadedRule[], selection: readonly string[]): string[] {
  const covered = new Set<string>();
  for (const { legs } of rules) for (const leg of legs) for (const id of matchLeg(leg, selection)) covered.add(id);
  return selection.filter((id) => covered.has(id));
}
