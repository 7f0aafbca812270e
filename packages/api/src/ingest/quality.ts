// The quality report of a built catalogue: what ingest decided about the
// records (classes, kinds, names changed, and whatever later rules derive),
// as counts a test can hold to floors and ceilings, plus a few examples of
// each change for a reviewer to read.
//
// A section is one entry of QUALITY_SECTIONS: it reads the catalogue and
// returns its counts and, per change, the records it changed. The report
// keeps at most EXAMPLES_PER_CHANGE of those, drawn by a seeded shuffle so the
// same catalogue always shows the same examples. To report a new derivation,
// add a section (its own module, importing its types from quality-types.ts)
// to the list; nothing else changes.
//
// Printed by `npm run cli -- quality` and written beside the catalogue by
// `npm run cli -- ingest` (QUALITY_REPORT_FILE).
import { DatabaseSync } from 'node:sqlite';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { classSection, kindSection, nameSection } from './quality-sections.ts';
import { placeSection, tagSection } from './quality-tagging.ts';
import { tierSection } from './quality-tiers.ts';

export type { QualityDb, QualityExample, QualitySection, SectionResult } from './quality-types.ts';
import type { QualityDb, QualityExample, QualitySection } from './quality-types.ts';

export const QUALITY_SECTIONS: readonly QualitySection[] = [classSection, kindSection, nameSection, placeSection, tagSection, tierSection];

export const EXAMPLES_PER_CHANGE = 20;
export const QUALITY_REPORT_FILE = 'quality-report.md';

export interface QualityReport {
  programmes: number;
  sections: {
    id: string;
    title: string;
    counts: Record<string, number>;
    examples: Record<string, { total: number; shown: QualityExample[] }>;
  }[];
}

export function qualityReport(db: QualityDb, sections: readonly QualitySection[] = QUALITY_SECTIONS, perChange = EXAMPLES_PER_CHANGE): QualityReport {
  const programmes = db.all<{ n: number }>('SELECT count(*) AS n FROM programs')[0]?.n ?? 0;
  return {
    programmes,
    sections: sections.map((s) => {
      const result = s.measure(db);
      const examples: QualityReport['sections'][number]['examples'] = {};
      for (const [key, rows] of Object.entries(result.changes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
        examples[key] = { total: rows.length, shown: seededSample(rows, perChange, `${s.id}:${key}`) };
      }
      return { id: s.id, title: s.title, counts: sortedCounts(result.counts), examples };
    }),
  };
}

/** The report as Markdown: per section a count table, then the examples of each change. */
export function renderQualityReport(report: QualityReport): string {
  const cell = (s: string | null | undefined) => (s ?? '—').replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  const lines = ['# Catalogue quality report', '', `Programme records: ${report.programmes}.`];
  for (const s of report.sections) {
    lines.push('', `## ${s.title}`, '', '| count | records |', '|---|---:|');
    for (const [k, n] of Object.entries(s.counts)) lines.push(`| ${cell(k)} | ${n} |`);
    for (const [key, { total, shown }] of Object.entries(s.examples)) {
      if (shown.length === 0) continue;
      lines.push('', `### ${s.title}: ${key} (${shown.length} of ${total})`, '', '| unified_id | before | after |', '|---|---|---|');
      for (const e of shown) lines.push(`| ${e.unified_id} | ${cell(e.before)} | ${cell(e.after)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const sortedCounts = (counts: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Up to `n` rows drawn without replacement by a PRNG seeded with `seed`, in
 * unified_id order: the same rows for the same input on every machine.
 */
export function seededSample<T extends { unified_id: string }>(rows: readonly T[], n: number, seed: string): T[] {
  const pool = [...rows].sort((a, b) => (a.unified_id < b.unified_id ? -1 : a.unified_id > b.unified_id ? 1 : 0));
  if (pool.length <= n) return pool;
  const random = mulberry32(fnv1a(seed));
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n).sort((a, b) => (a.unified_id < b.unified_id ? -1 : 1));
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Write the report of the catalogue `file` beside it (QUALITY_REPORT_FILE); returns the report's path. */
export function writeQualityReport(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows: QualityDb = { all: <T>(sql: string, ...params: (string | number | null)[]) => db.prepare(sql).all(...params) as T[] };
    const out = path.join(path.dirname(file), QUALITY_REPORT_FILE);
    writeFileSync(out, renderQualityReport(qualityReport(rows)));
    return out;
  } finally {
    db.close();
  }
}
