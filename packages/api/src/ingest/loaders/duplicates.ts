// Upstream duplicate groups: kept as a table (for provenance) and handed to
// the programs loader, which turns the group names into aliases.
import { Type } from 'typebox';
import { schemaValidator, json, insertOrReject, type Loader } from './types.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const DuplicateGroup = Type.Object({
  group_name: Type.String({ minLength: 1 }),
  unified_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  prefecture: Type.Optional(Nullable(Type.String())),
  verdict: Type.Optional(Nullable(Type.String())),
  winner_uid: Type.Optional(Nullable(Type.String())),
});

/** unified_id -> names of the duplicate groups it belongs to. */
export type DuplicateNames = Map<string, string[]>;
export const DUPLICATE_NAMES = 'duplicateNames';

export const duplicatesLoader: Loader = {
  name: 'program_duplicates',
  file: 'program_duplicates',
  required: false,
  ddl: `
    CREATE TABLE program_duplicates (
      group_id INTEGER PRIMARY KEY,
      group_name TEXT NOT NULL,
      prefecture TEXT,
      verdict TEXT,
      winner_uid TEXT,
      unified_ids TEXT NOT NULL,
      data TEXT NOT NULL
    ) STRICT;`,
  validate: schemaValidator(DuplicateGroup),
  prepare(ctx) {
    const names: DuplicateNames = new Map();
    ctx.shared.set(DUPLICATE_NAMES, names);
    const insert = ctx.db.prepare('INSERT INTO program_duplicates (group_name, prefecture, verdict, winner_uid, unified_ids, data) VALUES (?, ?, ?, ?, ?, ?)');
    return (r) => {
      const ids = r.unified_ids as string[];
      for (const id of ids) {
        const list = names.get(id) ?? [];
        list.push(r.group_name as string);
        names.set(id, list);
      }
      return insertOrReject(
        () =>
          insert.run(
            r.group_name as string,
            (r.prefecture as string) ?? null,
            (r.verdict as string) ?? null,
            (r.winner_uid as string) ?? null,
            json(ids),
            JSON.stringify(r),
          ),
        'group',
      );
    };
  },
};
