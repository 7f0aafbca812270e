// Program -> law references. Loaded before programs so that the legal-basis
// dimension (H) of each program can be derived while it is written.
import { Type } from 'typebox';
import { schemaValidator, type Loader } from './types.ts';

const LawRef = Type.Object({
  // Some references name the law by slug only (law_id null upstream).
  law_id: Type.Union([Type.String({ pattern: '^LAW-' }), Type.Null()]),
  law_slug: Type.String({ minLength: 1 }),
  unified_id: Type.String({ minLength: 1 }),
  law_title: Type.String(),
  ref_kind: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  derived_by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export type LawRefsByProgram = Map<string, { law_id: string | null; law_slug: string; law_title: string }[]>;
export const LAW_REFS = 'lawRefsByProgram';

export const programLawRefsLoader: Loader = {
  name: 'program_law_refs',
  file: 'program_law_refs',
  required: false,
  ddl: `
    CREATE TABLE program_law_refs (
      unified_id TEXT NOT NULL,
      law_id TEXT,
      law_slug TEXT NOT NULL,
      law_title TEXT NOT NULL,
      ref_kind TEXT,
      derived_by TEXT,
      PRIMARY KEY (unified_id, law_slug)
    ) STRICT;
    CREATE INDEX program_law_refs_law ON program_law_refs (law_id);`,
  validate: schemaValidator(LawRef),
  prepare(ctx) {
    const byProgram: LawRefsByProgram = new Map();
    ctx.shared.set(LAW_REFS, byProgram);
    const insert = ctx.db.prepare(
      'INSERT OR IGNORE INTO program_law_refs (unified_id, law_id, law_slug, law_title, ref_kind, derived_by) VALUES (?, ?, ?, ?, ?, ?)',
    );
    return (r) => {
      const list = byProgram.get(r.unified_id as string) ?? [];
      if (!list.some((l) => l.law_slug === r.law_slug)) {
        list.push({ law_id: (r.law_id as string) ?? null, law_slug: r.law_slug as string, law_title: r.law_title as string });
      }
      byProgram.set(r.unified_id as string, list);
      insert.run(
        r.unified_id as string,
        (r.law_id as string) ?? null,
        r.law_slug as string,
        r.law_title as string,
        (r.ref_kind as string) ?? null,
        (r.derived_by as string) ?? null,
      );
      return null;
    };
  },
};
