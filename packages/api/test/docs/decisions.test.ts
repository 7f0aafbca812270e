// The decision records keep their form and their index
// (docs/decisions/0003-decision-records.md):
// every file in docs/decisions/ is a record named NNNN-short-title.md with a
// title line, front lines and the Context / Decision / Consequences headings;
// the index (docs/decisions/README.md) lists exactly the files there and is
// what `npm run docs:decisions` writes; superseding links resolve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DECISIONS_DIR, INDEX_FILE, parseRecord, readRecords, renderIndex, STATUS } from '../../../../scripts/decisions-index.ts';

const records = readRecords();
const index = readFileSync(path.join(DECISIONS_DIR, INDEX_FILE), 'utf8');

test('docs/decisions holds the records split from the former single file', () => {
  assert.ok(records.length >= 150, `only ${records.length} records`);
  assert.ok(!existsSync(path.join(DECISIONS_DIR, '..', 'decisions.md')), 'the former single file of decisions is gone: the records are the decisions');
});

test('every record has its file name, title line, front lines and the three headings', () => {
  for (const r of records) assert.deepEqual(r.problems, [], `${r.file}: ${r.problems.join('; ')}`);
  const numbers = records.map((r) => r.number);
  assert.deepEqual(
    numbers.filter((n, i) => numbers.indexOf(n) !== i),
    [],
    'each number is used once',
  );
});

test('the form check finds a record without its headings', () => {
  const good = '# 0001. A title\n\n- Area: Search\n- Status: Accepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nSo.\n';
  assert.deepEqual(parseRecord('0001-a-title.md', good).problems, []);
  assert.match(parseRecord('0001-a-title.md', good.replace('## Decision', '## Rule')).problems.join(), /headings/);
  assert.match(parseRecord('0001-a-title.md', good.replace('\nSo.\n', '\n')).problems.join(), /Consequences is empty/);
  assert.match(parseRecord('0002-a-title.md', good).problems.join(), /title number/);
  assert.match(parseRecord('0001-a-title.md', good.replace('- Area: Search\n', '')).problems.join(), /Area/);
  assert.match(parseRecord('0001-a-title.md', good.replace('Accepted', 'Rejected')).problems.join(), /status/);
});

test('the index names every record file and no missing file', () => {
  const listed = [...index.matchAll(/^\| \[\d{4}\]\(([^)]+)\) \|/gm)].map((m) => m[1]);
  const files = records.map((r) => r.file);
  assert.deepEqual(
    files.filter((f) => !listed.includes(f)),
    [],
    'records missing from docs/decisions/README.md: run `npm run docs:decisions`',
  );
  assert.deepEqual(
    listed.filter((f) => !files.includes(f)),
    [],
    'the index names files that do not exist: run `npm run docs:decisions`',
  );
});

test('the index is what `npm run docs:decisions` writes', () => {
  assert.ok(index === renderIndex(records), 'docs/decisions/README.md is out of date: run `npm run docs:decisions`');
});

test('a superseded record names an existing record that replaces it', () => {
  for (const r of records) {
    const m = STATUS.exec(r.status);
    if (!m?.[1]) continue;
    assert.ok(existsSync(path.join(DECISIONS_DIR, m[2])), `${r.file}: superseded by a missing file ${m[2]}`);
    assert.ok(m[2].startsWith(m[1]) && m[2] !== r.file, `${r.file}: superseded by ${m[2]}`);
  }
  assert.ok(
    records.some((r) => r.status.startsWith('Superseded')),
    'the superseded records are kept',
  );
});
