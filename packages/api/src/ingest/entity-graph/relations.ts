// The typed edges of the graph, each from the dataset field that states it
// (docs/decisions/0057-graph-relations.md). Written in a fixed order: an edge
// stated twice keeps its first source and confidence.
import type { DatabaseSync } from 'node:sqlite';
import { normalizeText } from '../../catalog/text-query.ts';
import type { CaseLinks } from './case-studies.ts';
import type { EnforcementLinks } from './enforcement.ts';
import type { LawIndex } from './laws.ts';
import { corporateId } from './parties.ts';
import type { ProgramLinks } from './programs.ts';
import type { LegalBasisLinks } from './tax-measures.ts';
import type { GraphWriter } from './writer.ts';

export interface StatedLinks {
  programs: ProgramLinks;
  laws: LawIndex;
  enforcement: EnforcementLinks[];
  cases: CaseLinks[];
  taxLegalBasis: LegalBasisLinks;
}

/** program -> law (program_law_refs: 0.9 curated, 0.6 when upstream matched by full text). */
function programLaws(w: GraphWriter, db: DatabaseSync, laws: LawIndex): void {
  const refs = db.prepare('SELECT unified_id, law_id, law_slug, derived_by FROM program_law_refs').all() as {
    unified_id: string;
    law_id: string | null;
    law_slug: string;
    derived_by: string | null;
  }[];
  for (const ref of refs) {
    const law = ref.law_id ?? laws.bySlug.get(ref.law_slug) ?? null;
    if (law) w.addRelation(ref.unified_id, law, 'based_on_law', 'program_law_refs', ref.derived_by === 'fts' ? 0.6 : 0.9);
  }
}

/** Exclusion rules: every programme of side a -> every programme of side b (classes and conditions name no programme). */
function exclusionRules(w: GraphWriter, db: DatabaseSync): void {
  const rules = db.prepare('SELECT rule_id, kind, legs FROM exclusion_rules').all() as { rule_id: string; kind: string; legs: string }[];
  for (const rule of rules) {
    const legs = JSON.parse(rule.legs) as { unified_ids: string[]; side?: 'a' | 'b' }[];
    const side = (leg: { side?: 'a' | 'b' }, i: number) => leg.side ?? (i === 0 ? 'a' : 'b');
    const a = legs.filter((leg, i) => side(leg, i) === 'a').flatMap((leg) => leg.unified_ids);
    const b = legs.filter((leg, i) => side(leg, i) === 'b').flatMap((leg) => leg.unified_ids);
    const relation = rule.kind === 'prerequisite' ? 'prerequisite' : 'incompatible';
    for (const src of a) for (const dst of b) w.addRelation(src, dst, relation, `exclusion_rules:${rule.rule_id}`, 1);
  }
}

/** Duplicate groups: the kept record (or the first) -> every member. */
function duplicateGroups(w: GraphWriter, db: DatabaseSync): void {
  const groups = db.prepare('SELECT group_name, winner_uid, unified_ids FROM program_duplicates').all() as {
    group_name: string;
    winner_uid: string | null;
    unified_ids: string;
  }[];
  for (const g of groups) {
    const ids = JSON.parse(g.unified_ids) as string[];
    const hub = g.winner_uid && ids.includes(g.winner_uid) ? g.winner_uid : ids[0];
    for (const id of ids) w.addRelation(hub, id, 'similar', 'program_duplicates', 0.8);
  }
}

/**
 * case_study -> program only when a program name of 8+ characters held by
 * exactly one program appears verbatim in the case title (the case pages do
 * not name programs, so nothing is guessed beyond that).
 */
function caseStudies(w: GraphWriter, cases: CaseLinks[], programs: ProgramLinks): void {
  const distinctive = [...programs.idsByName].filter(([n, ids]) => ids.length === 1 && [...n].length >= 8);
  for (const c of cases) {
    if (c.houjinBangou) w.addRelation(c.id, corporateId(c.houjinBangou), 'features', 'case_studies.houjin_bangou', 1);
    const title = normalizeText(c.title);
    for (const [n, ids] of distinctive) if (title.includes(n)) w.addRelation(c.id, ids[0], 'used_program', 'case_studies.title', 0.5);
  }
}

/** tax measure -> law when the statute title of a legal basis names exactly one law. */
function taxLegalBasis(w: GraphWriter, links: LegalBasisLinks, laws: LawIndex): void {
  for (const [tax, bases] of links) {
    for (const basis of bases) {
      const title = basis
        .normalize('NFKC')
        .replace(/[(（][^)）]*[)）]/g, '')
        .replace(/(附則)?第.*$/, '')
        .trim();
      const law = title ? laws.uniqueByTitle(title) : null;
      if (law) w.addRelation(tax, law, 'based_on_law', 'tax_rulesets.legal_basis', 0.9);
    }
  }
}

export function addRelations(w: GraphWriter, db: DatabaseSync, links: StatedLinks): void {
  programLaws(w, db, links.laws);
  exclusionRules(w, db);
  duplicateGroups(w, db);
  for (const [program, authority] of links.programs.administeredBy) w.addRelation(program, authority, 'administered_by', 'programs.authority_name', 0.9);
  for (const e of links.enforcement) {
    if (e.houjinBangou) w.addRelation(e.id, corporateId(e.houjinBangou), 'targets', 'enforcement.houjin_bangou', 1);
    for (const law of e.laws) w.addRelation(e.id, law, 'cites_law', 'enforcement.related_laws', 0.9);
    for (const p of e.programs) w.addRelation(e.id, p, 'concerns_program', 'enforcement.related_programs_auto', 0.5);
    if (e.authority) w.addRelation(e.id, e.authority, 'issued_by', 'enforcement.authority', 0.9);
  }
  caseStudies(w, links.cases, links.programs);
  taxLegalBasis(w, links.taxLegalBasis, links.laws);
}
