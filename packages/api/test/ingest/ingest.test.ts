// Ingest: validation with line numbers, strict mode, build-then-rename.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ingest, IngestError } from '../../src/ingest/ingest.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { tempDir } from '../helper.ts';

const program = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ unified_id: id, primary_name: `制度 ${id}`, program_kind: 'subsidy', tier: 'B', prefecture: '北海道', amount_max_man_yen: 100, ...extra });

/** A rule of programme a against a reviewed class (ingest/loaders/exclusion-rule-references.ts), or against `programB` when given. */
function dataset(dir: string, programLines: string[], programB: { slug: string; name: string } = { slug: 'national_subsidy', name: '国の補助金' }): void {
  writeFileSync(path.join(dir, 'programs.jsonl'), `${programLines.join('\n')}\n`);
  writeFileSync(
    path.join(dir, 'exclusion_rules.jsonl'),
    `${JSON.stringify({
      rule_id: 'r1',
      kind: 'absolute',
      kind_normalized: 'mutex',
      severity: 'critical',
      program_a: 'a',
      program_a_name: '制度 UNI-a',
      program_a_uid_candidates: ['UNI-a'],
      program_b: programB.slug,
      program_b_name: programB.name,
      program_b_uid_candidates: null,
      description: 'a × b',
      source_urls: ['https://example.go.jp'],
    })}\n`,
  );
}

test('bad lines are rejected with file and line number; good ones load', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  dataset(src, [
    program('UNI-a'),
    '{not json',
    program('UNI-b', { tier: 'Q' }),
    '',
    program('UNI-c', { amount_max_man_yen: -5 }),
    JSON.stringify({ primary_name: 'no id' }),
    program('UNI-a'),
    '[1,2]',
    program('UNI-d', { tier: null }),
  ]);
  const report = await ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out });
  assert.equal(report.counts.programs, 2);
  const rejected = report.rejected.map((r) => `${r.file}:${r.lineNo}`);
  assert.deepEqual(rejected, ['programs.jsonl:2', 'programs.jsonl:3', 'programs.jsonl:5', 'programs.jsonl:6', 'programs.jsonl:7', 'programs.jsonl:8']);
  assert.match(report.rejected[0].reason, /invalid JSON/);
  assert.match(report.rejected[1].reason, /tier/);
  assert.match(report.rejected[4].reason, /duplicate unified_id/);
  const db = new DatabaseSync(report.catalogPath, { readOnly: true });
  const rows = db.prepare('SELECT unified_id, tier, excluded, exclusion_reason FROM programs ORDER BY unified_id').all();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { unified_id: 'UNI-a', tier: 'B', excluded: 0, exclusion_reason: null },
      { unified_id: 'UNI-d', tier: 'X', excluded: 1, exclusion_reason: 'unclassified' },
    ],
  );
  const rule = db.prepare('SELECT program_a, program_b FROM exclusion_rules').get() as Record<string, string>;
  assert.equal(rule.program_a, 'UNI-a', 'candidates resolve to unified_ids');
  assert.equal(rule.program_b, 'national_subsidy', 'a reviewed class keeps its key');
  db.close();
});

test('an exclusion rule reference that resolves to no programme and is not reviewed fails the build', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  dataset(src, [program('UNI-a')], { slug: 'keiei-nowhere', name: '存在しない事業' });
  await assert.rejects(ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out }), /exclusion rule r1: reference "keiei-nowhere".*resolves to no programme/);
  // the same rule naming a programme that exists builds
  dataset(src, [program('UNI-a'), program('UNI-b')], { slug: 'b', name: '制度 UNI-b' });
  const report = await ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out });
  const db = new DatabaseSync(report.catalogPath, { readOnly: true });
  assert.equal((db.prepare('SELECT program_b FROM exclusion_rules').get() as { program_b: string }).program_b, 'UNI-b', 'resolved by its exact name');
  db.close();
});

test('strict mode: any rejection fails the build and leaves the previous catalogue untouched', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  dataset(src, [program('UNI-a')]);
  const first = await ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out, strict: true });
  const before = statSync(first.catalogPath).mtimeMs;
  dataset(src, [program('UNI-a'), '{broken']);
  await assert.rejects(ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out, strict: true }), (err: unknown) => {
    assert.ok(err instanceof IngestError);
    assert.deepEqual(
      err.report.rejected.map((r) => r.lineNo),
      [2],
    );
    return true;
  });
  assert.equal(statSync(first.catalogPath).mtimeMs, before, 'the old catalogue is still in place');
  assert.deepEqual(
    readdirSync(out).filter((f) => f.includes('.building-')),
    [],
    'no temporary file left behind',
  );
});

test('a missing required file fails without writing a catalogue', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  await assert.rejects(ingest({ plan: CATALOG_PLAN, datasetDir: src, dataDir: out }), /required dataset file missing: programs/);
  assert.equal(existsSync(path.join(out, 'catalog.sqlite')), false);
  assert.deepEqual(readdirSync(out), []);
});

test('CLI: `ingest` reports rejected lines and exits 0; `--strict` exits 1', async (t) => {
  const src = tempDir(t);
  const out = tempDir(t);
  dataset(src, [program('UNI-a'), '{broken']);
  const run = (...extra: string[]) =>
    spawnSync(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', path.join(REPO_ROOT, 'packages/api/src/cli.ts'), 'ingest', '--dataset', src, '--data-dir', out, ...extra],
      { encoding: 'utf8' },
    );
  const ok = run();
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stderr, /rejected programs\.jsonl:2: invalid JSON/);
  assert.match(ok.stderr, /programs: 1 loaded, 1 rejected/);
  const strict = run('--strict');
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /ingest failed: 1 record\(s\) rejected/);
});
