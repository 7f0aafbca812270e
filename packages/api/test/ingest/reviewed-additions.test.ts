// Reviewed additions (TableSpec.reviewed, decision 0398): a hand-made record
// is loaded after the dataset's with the same checks, only into a catalogue
// that holds the programmes it rests on, and a line that is not reviewed data
// (no review, an invalid field, an id the dataset already has) stops the build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Type } from 'typebox';
import { ingest, IngestError } from '../../src/ingest/ingest.ts';
import { duplicatesLoader } from '../../src/ingest/loaders/duplicates.ts';
import { programLawRefsLoader } from '../../src/ingest/loaders/program-law-refs.ts';
import { programsLoader } from '../../src/ingest/loaders/programs.ts';
import { municipalitiesTable } from '../../src/ingest/loaders/reference-tables.ts';
import { typedRecordsLoader } from '../../src/ingest/loaders/typed-records.ts';
import { defineTable } from '../../src/catalog/record-sets/spec.ts';
import { tempDir } from '../helper.ts';

const REVIEW = { reason: 'the catalogue holds it as a programme', sources: ['https://example.go.jp/m'], programmes: ['UNI-p1'] };

function plan(reviewed: string) {
  const spec = defineTable({
    table: 'measures',
    file: 'measures',
    schema: Type.Object({ unified_id: Type.String({ pattern: '^M-' }), name: Type.String(), review: Type.Optional(Type.Object({})) }),
    columns: { unified_id: 'text', name: 'text', review: 'json' },
    unique: ['unified_id'],
    reviewed,
  });
  // the programme loader and what it reads (duplicate groups, law references, the municipality master)
  return {
    loaders: [duplicatesLoader, programLawRefsLoader, typedRecordsLoader(municipalitiesTable), programsLoader, typedRecordsLoader(spec)],
    sourceFiles: [],
  };
}

async function build(t: Parameters<typeof tempDir>[0], lines: unknown[]) {
  const src = tempDir(t);
  const out = tempDir(t);
  writeFileSync(path.join(src, 'programs.jsonl'), `${JSON.stringify({ unified_id: 'UNI-p1', primary_name: '事業承継税制', tier: 'B' })}\n`);
  writeFileSync(path.join(src, 'measures.jsonl'), `${JSON.stringify({ unified_id: 'M-1', name: 'upstream' })}\n`);
  const reviewed = path.join(src, 'reviewed.jsonl');
  writeFileSync(reviewed, ['// a comment line', ...lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))].join('\n'));
  const report = await ingest({ plan: plan(reviewed) as never, datasetDir: src, dataDir: out, overlayDirs: [] });
  const db = new DatabaseSync(report.catalogPath, { readOnly: true });
  t.after(() => db.close());
  return db
    .prepare('SELECT unified_id FROM measures ORDER BY unified_id')
    .all()
    .map((r) => r.unified_id);
}

test('a reviewed addition is loaded after the dataset, only where the catalogue holds its programmes', async (t) => {
  const ids = await build(t, [
    { unified_id: 'M-2', name: 'added', review: REVIEW },
    { unified_id: 'M-3', name: 'rests on a programme this dataset lacks', review: { ...REVIEW, programmes: ['UNI-absent'] } },
  ]);
  assert.deepEqual(ids, ['M-1', 'M-2']);
});

test('a reviewed line that is not reviewed data stops the build, naming the line', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{ unified_id: 'M-2', name: 'no review' }, /reviewed\.jsonl:2: a reviewed record needs review \{reason, sources\}/],
    [{ unified_id: 'X-2', name: 'bad id', review: REVIEW }, /reviewed\.jsonl:2: field unified_id/],
    [{ unified_id: 'M-1', name: 'repeats the dataset', review: REVIEW }, /reviewed\.jsonl:2: /],
    ['{not json', /reviewed\.jsonl:2: not JSON/],
  ];
  for (const [line, message] of cases) {
    await assert.rejects(
      () => build(t, [line]),
      (err: unknown) => err instanceof IngestError && message.test(err.message),
      String(message),
    );
  }
});
