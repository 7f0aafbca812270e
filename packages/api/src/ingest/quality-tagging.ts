// The quality report's sections on where a programme is and what it is for
// (quality.ts runs them): places and levels derived (authority-level.ts),
// purposes, audiences and industries filled (tagging.ts).
import type { QualityDb, QualityExample, QualitySection } from './quality-types.ts';
import { CORRECTED } from './tag-corrections.ts';

interface Row {
  unified_id: string;
  published_name: string;
  record_class: string;
  excluded: number;
  authority_level: string | null;
  prefecture: string | null;
  municipality: string | null;
  funding_purpose: string;
  target_types: string;
  jsic_majors: string;
  provenance: string;
}

const rowsOf = (db: QualityDb): Row[] =>
  db.all<Row>(
    `SELECT unified_id, published_name, record_class, excluded, authority_level, prefecture, municipality,
            funding_purpose, target_types, jsic_majors, provenance
       FROM programs ORDER BY unified_id`,
  );

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};
const push = (changes: Record<string, QualityExample[]>, key: string, e: QualityExample): void => {
  (changes[key] ??= []).push(e);
};
const isServedProgramme = (r: Row): boolean => r.excluded === 0 && r.record_class === 'programme';
const placeText = (r: Row): string => [r.authority_level ?? '(no level)', r.prefecture ?? '(nationwide)', r.municipality].filter(Boolean).join(' ');

/** Levels and places ingest set or removed, per field and rule; what served programmes carry. */
export const placeSection: QualitySection = {
  id: 'places',
  title: 'Places and levels derived',
  measure(db) {
    const counts: Record<string, number> = {
      'served national with prefecture': 0,
      'served without prefecture': 0,
      'served without level': 0,
      'served local without prefecture': 0,
      'served municipal without municipality': 0,
    };
    const changes: Record<string, QualityExample[]> = {};
    for (const r of rowsOf(db)) {
      if (isServedProgramme(r)) {
        if (r.authority_level === 'national' && r.prefecture !== null) bump(counts, 'served national with prefecture');
        if (r.prefecture === null) bump(counts, 'served without prefecture');
        if (r.authority_level === null) bump(counts, 'served without level');
        const local = r.authority_level === 'prefecture' || r.authority_level === 'municipality';
        if (local && r.prefecture === null) bump(counts, 'served local without prefecture');
        if (r.authority_level === 'municipality' && r.municipality === null) bump(counts, 'served municipal without municipality');
      }
      const provenance = JSON.parse(r.provenance) as Record<string, unknown>;
      for (const field of ['authority_level', 'prefecture', 'municipality'] as const) {
        const how = provenance[field];
        if (typeof how !== 'string' || !how.startsWith('derived:')) continue;
        const removed = r[field] === null;
        const key = `${field} ${removed ? 'removed' : 'set'} ${how}`;
        bump(counts, key);
        push(changes, key, { unified_id: r.unified_id, before: r.published_name, after: placeText(r) });
      }
    }
    return { counts, changes };
  },
};

/** Purposes, audiences and industries of served programmes: how many carry them, and how each field was filled. */
export const tagSection: QualitySection = {
  id: 'tags',
  title: 'Purposes, audiences and industries filled',
  measure(db) {
    const counts: Record<string, number> = { programmes: 0, 'with purpose': 0, 'with audience': 0, 'with purpose and audience': 0, 'with industries': 0 };
    const changes: Record<string, QualityExample[]> = {};
    for (const r of rowsOf(db)) {
      if (!isServedProgramme(r)) continue;
      bump(counts, 'programmes');
      const values = {
        funding_purpose: JSON.parse(r.funding_purpose) as string[],
        target_types: JSON.parse(r.target_types) as string[],
        jsic_majors: JSON.parse(r.jsic_majors) as string[],
      };
      if (values.funding_purpose.length > 0) bump(counts, 'with purpose');
      if (values.target_types.length > 0) bump(counts, 'with audience');
      if (values.funding_purpose.length > 0 && values.target_types.length > 0) bump(counts, 'with purpose and audience');
      if (values.jsic_majors.length > 0) bump(counts, 'with industries');
      const provenance = JSON.parse(r.provenance) as Record<string, unknown>;
      for (const field of ['funding_purpose', 'target_types', 'jsic_majors'] as const) {
        const given = provenance[field];
        if (typeof given !== 'string') continue;
        // A reviewed correction of the dataset's value (tag-corrections.ts), then what the rules did with the field.
        if (given.startsWith(CORRECTED)) {
          bump(counts, `${field} corrected`);
          push(changes, `${field} corrected`, { unified_id: r.unified_id, before: r.published_name, after: values[field].join(', ') });
        }
        const how = given.startsWith(`${CORRECTED}+`) ? given.slice(CORRECTED.length + 1) : given;
        const kind = how.startsWith('derived:tagging:') ? 'derived' : how.endsWith('mapped:vocabulary') ? 'mapped' : null;
        if (!kind) continue;
        bump(counts, `${field} ${kind}`);
        // One count per rule a derived field names (name, kind, authority, …).
        if (kind === 'derived') for (const rule of how.slice('derived:tagging:'.length).split('+')) bump(counts, `${field} rule:${rule}`);
        push(changes, `${field} ${kind}`, { unified_id: r.unified_id, before: r.published_name, after: values[field].join(', ') });
      }
    }
    return { counts, changes };
  },
};
