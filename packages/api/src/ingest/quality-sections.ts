// The quality report's sections on what a record is and what it is called
// (quality.ts runs them): record classes, programme kinds, names changed.
import type { QualityDb, QualityExample, QualitySection } from './quality-types.ts';

interface Row {
  unified_id: string;
  published_name: string;
  primary_name: string;
  record_class: string;
  excluded: number;
  exclusion_reason: string | null;
  program_kind: string | null;
  provenance: string;
}

const rowsOf = (db: QualityDb): Row[] =>
  db.all<Row>(
    `SELECT unified_id, published_name, primary_name, record_class, excluded, exclusion_reason, program_kind, provenance
       FROM programs ORDER BY unified_id`,
  );

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};
const push = (changes: Record<string, QualityExample[]>, key: string, e: QualityExample): void => {
  (changes[key] ??= []).push(e);
};
const provenanceOf = (r: Row): Record<string, unknown> => JSON.parse(r.provenance) as Record<string, unknown>;

/** Records per class (ingest/classify.ts), all and served by default; examples of every non-programme class. */
export const classSection: QualitySection = {
  id: 'classes',
  title: 'Record classes',
  measure(db) {
    const counts: Record<string, number> = {};
    const changes: Record<string, QualityExample[]> = {};
    for (const r of rowsOf(db)) {
      bump(counts, `class:${r.record_class}`);
      if (r.excluded === 0) bump(counts, `served:${r.record_class}`);
      if (r.record_class !== 'programme') {
        push(changes, r.record_class, { unified_id: r.unified_id, before: r.published_name, after: r.exclusion_reason ?? r.record_class });
      }
    }
    return { counts, changes };
  },
};

/** Programmes per kind; examples of every kind ingest derived (provenance `derived:…`). */
export const kindSection: QualitySection = {
  id: 'kinds',
  title: 'Programme kinds',
  measure(db) {
    const counts: Record<string, number> = {};
    const changes: Record<string, QualityExample[]> = {};
    for (const r of rowsOf(db)) {
      if (r.record_class === 'programme') bump(counts, `kind:${r.program_kind ?? '(none)'}`);
      const how = provenanceOf(r).program_kind;
      if (typeof how === 'string' && how.startsWith('derived:')) {
        bump(counts, `kind ${how}`);
        push(changes, how, { unified_id: r.unified_id, before: r.published_name, after: r.program_kind });
      }
    }
    return { counts, changes };
  },
};

/** Debris a served name may still carry, by kind: the report counts what the rules left. */
const LEFT_DEBRIS: Record<string, RegExp> = {
  announcement: /(?:について|お知らせ|の公募について|を募集します|を公募します|決定しました|開始します|のご案内)[!！。]?$/u,
  'site title': /ホームページ|ウェブサイト|公式サイト|government|あきたネット|[|｜]/iu,
  banner: /^【/u,
};

/** Names ingest changed (ingest/names.ts), per rule, with the published and the cleaned text; debris left on served names. */
export const nameSection: QualitySection = {
  id: 'names',
  title: 'Names changed',
  measure(db) {
    const counts: Record<string, number> = {
      'names changed': 0,
      'served with announcement left': 0,
      'served with site title left': 0,
      'served with banner left': 0,
    };
    const changes: Record<string, QualityExample[]> = {};
    for (const r of rowsOf(db)) {
      if (r.excluded === 0) {
        for (const [what, re] of Object.entries(LEFT_DEBRIS)) if (re.test(r.primary_name)) bump(counts, `served with ${what} left`);
      }
      const how = provenanceOf(r).primary_name;
      if (typeof how !== 'string' || !how.startsWith('cleaned:')) continue;
      bump(counts, 'names changed');
      for (const rule of how.slice('cleaned:'.length).split('+')) {
        bump(counts, `rule:${rule}`);
        push(changes, rule, { unified_id: r.unified_id, before: r.published_name, after: r.primary_name });
      }
    }
    return { counts, changes };
  },
};
