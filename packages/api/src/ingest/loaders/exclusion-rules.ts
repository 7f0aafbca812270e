// Exclusion / prerequisite rules between programs. The dataset names programs
// by upstream slug and Japanese name with `*_uid_candidates`; each "leg" of a
// rule is resolved here to the unified_ids it stands for, so that a check can
// match a selection by unified_id, slug or name alike. Unresolved legs are
// reported as ingest warnings and still match by slug and name.
import type { RuleLeg } from '../../catalog/queries/exclusions.ts';
import { Type } from 'typebox';
import type { DatabaseSync } from 'node:sqlite';
import { schemaValidator, json, insertOrReject, type Loader } from './types.ts';

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

function resolveLeg(db: DatabaseSync, slug: string | null, name: string | null, candidates: string[] | null): RuleLeg {
  const exists = db.prepare('SELECT 1 FROM programs WHERE unified_id = ?');
  let ids = (candidates ?? []).filter((id) => exists.get(id) !== undefined);
  if (ids.length === 0 && name) {
    ids = (db.prepare('SELECT unified_id FROM programs WHERE primary_name = ? ORDER BY tier_order, unified_id').all(name) as { unified_id: string }[]).map(
      (r) => r.unified_id,
    );
  }
  return { slug, name, unified_ids: ids };
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
      const a =
        r.program_a || r.program_a_name
          ? resolveLeg(ctx.db, (r.program_a as string) ?? null, (r.program_a_name as string) ?? null, r.program_a_uid_candidates as string[] | null)
          : null;
      const b =
        r.program_b || r.program_b_name
          ? resolveLeg(ctx.db, (r.program_b as string) ?? null, (r.program_b_name as string) ?? null, r.program_b_uid_candidates as string[] | null)
          : null;
      const groupSlugs = (r.program_b_group as string[] | null) ?? [];
      const groupNames = (r.program_b_group_names as string[] | null) ?? [];
      const group = groupSlugs.map((slug, i) => resolveLeg(ctx.db, slug, groupNames[i] ?? null, null));
      const legs = [a, b, ...group].filter((l): l is RuleLeg => l !== null);
      for (const leg of legs) {
        if (leg.unified_ids.length === 0) {
          ctx.warn(`exclusion rule ${r.rule_id as string}: program "${leg.name ?? leg.slug}" matches no unified_id; it matches by slug/name only`);
        }
      }
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
