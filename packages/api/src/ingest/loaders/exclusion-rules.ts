// Exclusion / prerequisite rules between programs. The dataset names programs
// by upstream slug and Japanese name with `*_uid_candidates`; each "leg" of a
// rule is resolved here to what it stands for (decision 0393): the unified_ids
// of the programmes it names (candidates that exist, else an exact name, else
// the reviewed table in exclusion-rule-references.ts), or a class of
// programmes or a condition on the applicant (reviewed). A reference that
// resolves to nothing fails the build. Each leg keeps its side: `a` is the
// rule's own programme (or applicant condition), `b` what it is checked against.
import type { RuleLeg } from '../../catalog/queries/exclusions.ts';
import { Type } from 'typebox';
import type { DatabaseSync } from 'node:sqlite';
import { schemaValidator, json, insertOrReject, type Loader } from './types.ts';
import { EXCLUSION_RULE_REFERENCES } from './exclusion-rule-references.ts';

const Str = Type.Union([Type.String(), Type.Null()]);
const StrList = Type.Union([Type.Array(Type.String()), Type.Null()]);

const RuleRecord = Type.Object({
  rule_id: Type.String({ minLength: 1 }),
  kind: Type.String({ minLength: 1 }),
  kind_normalized: Type.Optional(Str),
  severity: Type.Optional(Str),
  program_a: Type.Optional(Str),
  program_b: Type.Optional(Str),
  program_a_name: Type.Optional(Str),
  program_b_name: Type.Optional(Str),
  program_a_uid_candidates: Type.Optional(StrList),
  program_b_uid_candidates: Type.Optional(StrList),
  program_b_group: Type.Optional(StrList),
  program_b_group_names: Type.Optional(StrList),
  description: Type.Optional(Str),
  source_notes: Type.Optional(Type.Unknown()),
  source_urls: Type.Optional(StrList),
  extra: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
});

/** Resolve one reference of a rule, or throw: a rule whose reference stands for nothing would never fire. */
function resolveLeg(db: DatabaseSync, ruleId: string, side: 'a' | 'b', slug: string | null, name: string | null, candidates: string[] | null): RuleLeg {
  const exists = db.prepare('SELECT 1 FROM programs WHERE unified_id = ?');
  let ids = (candidates ?? []).filter((id) => exists.get(id) !== undefined);
  if (ids.length === 0 && name) {
    ids = (db.prepare('SELECT unified_id FROM programs WHERE primary_name = ? ORDER BY tier_order, unified_id').all(name) as { unified_id: string }[]).map(
      (r) => r.unified_id,
    );
  }
  if (ids.length > 0) return { slug, name, unified_ids: ids, side, refers_to: 'programmes' };
  const review = (slug ? EXCLUSION_RULE_REFERENCES[slug] : undefined) ?? (name ? EXCLUSION_RULE_REFERENCES[name] : undefined);
  if (review?.refers_to === 'programmes') {
    const reviewed = review.unified_ids.filter((id) => exists.get(id) !== undefined);
    if (reviewed.length > 0) return { slug, name, unified_ids: reviewed, side, refers_to: 'programmes', note: review.reason };
  } else if (review) {
    return { slug, name: name ?? review.label, unified_ids: [], side, refers_to: review.refers_to, note: review.label };
  }
  throw new Error(
    `exclusion rule ${ruleId}: reference "${slug ?? name}" (${name ?? 'no name'}) resolves to no programme; ` +
      'add the programme, fix the candidates, or review it in ingest/loaders/exclusion-rule-references.ts',
  );
}

function sourceNotesText(notes: unknown): string | null {
  if (notes === null || notes === undefined) return null;
  if (typeof notes === 'string') return notes;
  const n = notes as { references?: string[]; quotes?: string[] };
  const parts = [...(n.references ?? []), ...(n.quotes ?? []).map((q) => `「${q}」`)];
  return parts.length > 0 ? parts.join(' / ') : null;
}

export const exclusionRulesLoader: Loader = {
  name: 'exclusion_rules',
  file: 'exclusion_rules',
  required: true,
  ddl: `
    CREATE TABLE exclusion_rules (
      rule_id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      severity TEXT,
      program_a TEXT,
      program_b TEXT,
      program_b_group TEXT NOT NULL,
      description TEXT,
      source_notes TEXT,
      source_urls TEXT NOT NULL,
      extra TEXT NOT NULL,
      legs TEXT NOT NULL
    ) STRICT;`,
  validate: schemaValidator(RuleRecord),
  prepare(ctx) {
    const insert = ctx.db.prepare(`INSERT INTO exclusion_rules
      (rule_id, kind, severity, program_a, program_b, program_b_group, description, source_notes, source_urls, extra, legs)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    return (r) => {
      const id = r.rule_id as string;
      const a =
        r.program_a || r.program_a_name
          ? resolveLeg(ctx.db, id, 'a', (r.program_a as string) ?? null, (r.program_a_name as string) ?? null, r.program_a_uid_candidates as string[] | null)
          : null;
      const b =
        r.program_b || r.program_b_name
          ? resolveLeg(ctx.db, id, 'b', (r.program_b as string) ?? null, (r.program_b_name as string) ?? null, r.program_b_uid_candidates as string[] | null)
          : null;
      const groupSlugs = (r.program_b_group as string[] | null) ?? [];
      const groupNames = (r.program_b_group_names as string[] | null) ?? [];
      const group = groupSlugs.map((slug, i) => resolveLeg(ctx.db, id, 'b', slug, groupNames[i] ?? null, null));
      // A rule without a programme A names its side A as a group in `extra` (a class or an applicant condition).
      const aGroup = (((r.extra as Record<string, unknown> | null)?.program_a_group as string[] | undefined) ?? []).map((ref) =>
        resolveLeg(ctx.db, id, 'a', ref, null, null),
      );
      const legs = [a, ...aGroup, b, ...group].filter((l): l is RuleLeg => l !== null);
      // Public fields name programs by unified_id when resolved, else by the upstream key.
      const label = (leg: RuleLeg | null): string | null => (leg ? (leg.unified_ids[0] ?? leg.slug ?? leg.name) : null);
      const extra = {
        ...((r.extra as Record<string, unknown>) ?? {}),
        upstream_kind: r.kind,
        program_a_slug: a?.slug ?? null,
        program_a_name: a?.name ?? null,
        program_a_unified_ids: a?.unified_ids ?? [],
        program_b_slug: b?.slug ?? null,
        program_b_name: b?.name ?? null,
        program_b_unified_ids: b?.unified_ids ?? [],
        program_b_group_slugs: groupSlugs,
        program_b_group_names: groupNames,
        source_notes: r.source_notes ?? null,
      };
      return insertOrReject(
        () =>
          insert.run(
            r.rule_id as string,
            (r.kind_normalized as string) ?? (r.kind as string),
            (r.severity as string) ?? null,
            label(a),
            label(b),
            json(group.map(label)) as string,
            (r.description as string) ?? null,
            sourceNotesText(r.source_notes),
            json(r.source_urls ?? []) as string,
            json(extra) as string,
            json(legs) as string,
          ),
        `rule_id ${r.rule_id as string}`,
      );
    };
  },
};
