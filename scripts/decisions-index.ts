// Rewrites docs/decisions/README.md, the index of the decision records, from
// each record's title line and front lines (`npm run docs:decisions`). Run it
// after adding or renaming a record, and again to settle a merge conflict in
// the index: the files are the source, the index is derived.
// packages/api/test/docs/decisions.test.ts fails when the committed index
// differs from what this writes, or when a record lacks its form.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DECISIONS_DIR = path.resolve(import.meta.dirname, '..', 'docs', 'decisions');
export const INDEX_FILE = 'README.md';

/** A record's file name: four digits, a dash, a short title in lower-case words. */
export const RECORD_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
/** The headings every record has, in this order. */
export const SECTIONS = ['Context', 'Decision', 'Consequences'] as const;
/** `Accepted`, or `Superseded by [NNNN](NNNN-title.md)`. */
export const STATUS = /^(?:Accepted|Superseded by \[(\d{4})\]\((\d{4}-[^)]+\.md)\))$/;

export interface DecisionRecord {
  file: string;
  number: string;
  title: string;
  area: string;
  status: string;
  /** The `## ` headings in the order they appear. */
  headings: string[];
  /** What is wrong with the record's form; empty when it is well formed. */
  problems: string[];
}

/** Reads one record: its title line `# NNNN. Title`, front lines `- Area:` and `- Status:`, and headings. */
export function parseRecord(file: string, text: string): DecisionRecord {
  const problems: string[] = [];
  const lines = text.split('\n');
  const fileNumber = RECORD_FILE.exec(file)?.[1] ?? '';
  if (!fileNumber) problems.push('file name is not NNNN-short-title.md');
  const title = /^# (\d{4})\. (.+)$/.exec(lines[0] ?? '');
  if (!title) problems.push('first line is not "# NNNN. Title"');
  else if (title[1] !== fileNumber) problems.push(`title number ${title[1]} differs from the file's ${fileNumber}`);
  const front = (name: string): string => {
    const line = lines.slice(1, 6).find((l) => l.startsWith(`- ${name}: `));
    if (!line) problems.push(`front line "- ${name}: …" is missing`);
    return line ? line.slice(name.length + 4).trim() : '';
  };
  const area = front('Area');
  const status = front('Status');
  if (status && !STATUS.test(status)) problems.push(`status "${status}" is neither Accepted nor "Superseded by [NNNN](NNNN-title.md)"`);
  const headings = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim());
  if (headings.join('|') !== SECTIONS.join('|')) problems.push(`headings are [${headings.join(', ')}], not [${SECTIONS.join(', ')}]`);
  for (const section of SECTIONS) {
    const body = text.split(`\n## ${section}\n`)[1]?.split('\n## ')[0] ?? '';
    if (headings.includes(section) && !body.trim()) problems.push(`section ${section} is empty`);
  }
  return { file, number: fileNumber, title: title?.[2] ?? '', area, status, headings, problems };
}

/** Every record of the directory, by number (the index itself left out). */
export function readRecords(dir = DECISIONS_DIR): DecisionRecord[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== INDEX_FILE)
    .sort()
    .map((f) => parseRecord(f, readFileSync(path.join(dir, f), 'utf8')));
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The index: how to write a record, then one table row per record. */
export function renderIndex(records: readonly DecisionRecord[]): string {
  return [
    '# Decisions',
    '',
    'How the service settles what the interface contract leaves open, and the',
    'choices of design and layout behind the code: one decision per file, in',
    "Michael Nygard's form (context, decision, consequences). A maintainer reads",
    'here what the service does, and why, before changing it. The map of the code',
    'is `docs/architecture.md`; why the records look like this is',
    '[0003](0003-decision-records.md).',
    '',
    '## Adding a decision',
    '',
    '1. Write `docs/decisions/NNNN-short-title.md` with the next free number of',
    '   your range, in this form (short lines):',
    '',
    '   ```md',
    '   # NNNN. Title',
    '',
    '   - Area: Search',
    '   - Status: Accepted',
    '',
    '   ## Context',
    '',
    '   The open point or the problem, in a line or three.',
    '',
    '   ## Decision',
    '',
    '   The rule, precise, with its edge cases.',
    '',
    '   ## Consequences',
    '',
    '   What follows, the trade-offs, what it rules out.',
    '   ```',
    '',
    "2. A decision that replaces another: set the old one's status to",
    '   `Superseded by [NNNN](NNNN-short-title.md)` and cut it to a few lines.',
    '3. Run `npm run docs:decisions`: it rewrites the table below from the',
    "   files' title and front lines (never edit the table by hand; after a merge",
    '   conflict here, run it again). `npm test -- packages/api/test/docs/decisions.test.ts`',
    '   checks the form and the index.',
    '',
    '## Index',
    '',
    '| No. | Title | Area | Status |',
    '|---|---|---|---|',
    ...records.map((r) => `| [${r.number}](${r.file}) | ${cell(r.title)} | ${cell(r.area)} | ${cell(r.status)} |`),
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const records = readRecords();
  writeFileSync(path.join(DECISIONS_DIR, INDEX_FILE), renderIndex(records));
  process.stdout.write(`wrote docs/decisions/${INDEX_FILE}: ${records.length} records\n`);
  const bad = records.filter((r) => r.problems.length > 0);
  for (const r of bad) process.stderr.write(`${r.file}: ${r.problems.join('; ')}\n`);
  if (bad.length > 0) process.exitCode = 1;
}
