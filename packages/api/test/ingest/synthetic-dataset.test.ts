// The synthetic catalogue of the growth bench (bench/synthetic-dataset.ts,
// `npm run bench -- --catalogue x10`): deterministic for a seed, records that
// stay programmes of their own, the selectivity of the bundled catalogue's
// words and places, and a catalogue the server starts and serves on (a small
// factor here; the bench makes ten times).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BUNDLED_DATASET_DIR, REPO_ROOT } from '../../src/config.ts';
import { ensureCatalog } from '../../src/ingest/ensure.ts';
import { CATALOG_PLAN } from '../../src/ingest/plan.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { readProgrammes, synthesise, syntheticDataset, type Programme } from '../../../../bench/synthetic-dataset.ts';
import { body, build } from '../helper.ts';

const bundled = readProgrammes(BUNDLED_DATASET_DIR);

test('synthesis is deterministic for a seed, and another seed gives other records', () => {
  const a = synthesise(bundled, 300, 7, 'test');
  const b = synthesise(bundled, 300, 7, 'test');
  const c = synthesise(bundled, 300, 8, 'test');
  assert.deepEqual(a, b);
  assert.equal(a.records.length, 300);
  assert.notDeepEqual(
    a.records.map((r) => r.primary_name),
    c.records.map((r) => r.primary_name),
  );
});

test('synthetic records: new ids, their parts named in the provenance, the bundled shares of words, places, tiers and amounts', () => {
  const { records, byShape } = synthesise(bundled, 6000, 25, 'test');
  const ids = new Set(bundled.map((p) => p.unified_id));
  for (const r of records) {
    assert.match(r.unified_id, /^UNI-syn-[0-9a-f]{10}$/);
    assert.ok(!ids.has(r.unified_id), `${r.unified_id} is new`);
    ids.add(r.unified_id);
    assert.match(String(r._provenance?.synthetic), /^test: programme of UNI-.+, amounts of UNI-/);
  }
  assert.equal(byShape.name_place + byShape.placed + byShape.unplaced, records.length);
  // Shares of the bundled catalogue, within a fifth of themselves (6,000 draws: the sampling error is a few per cent).
  const share = (list: readonly Programme[], test: (p: Programme) => boolean) => list.filter(test).length / list.length;
  const near = (what: string, test: (p: Programme) => boolean) => {
    const want = share(bundled, test);
    const got = share(records, test);
    assert.ok(Math.abs(got - want) <= want / 5, `${what}: ${got.toFixed(3)} of the synthetic records, ${want.toFixed(3)} of the bundled ones`);
  };
  for (const word of ['補助金', '事業', '支援', '就農', '融資']) near(`name holds ${word}`, (p) => p.primary_name.includes(word));
  near('has a prefecture', (p) => Boolean(p.prefecture));
  near('in 北海道', (p) => p.prefecture === '北海道');
  near('tier A', (p) => p.tier === 'A');
  near('an upper amount of 1,000万円 or more', (p) => Number(p.amount_max_man_yen ?? 0) >= 1000);
});

test('a server starts on a synthetic catalogue and serves its records', async (t) => {
  const dataset = syntheticDataset({ factor: 1.05, seed: 25, outDir: path.join(REPO_ROOT, 'var', 'test-dataset-synthetic') });
  assert.equal(dataset.bundled + dataset.synthetic, Math.round(bundled.length * 1.05));
  const { path: file } = await ensureCatalog(CATALOG_PLAN, path.join(REPO_ROOT, 'var', 'test-catalog-synthetic'), dataset.dir);
  const db = new DatabaseSync(file, { readOnly: true });
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const records = count('SELECT count(*) AS n FROM programs');
  const synthetic = count("SELECT count(*) AS n FROM programs WHERE unified_id LIKE 'UNI-syn-%' AND canonical_id IS NULL");
  const sample = db
    .prepare(
      "SELECT unified_id, primary_name FROM programs WHERE unified_id LIKE 'UNI-syn-%' AND canonical_id IS NULL AND tier IN ('S','A','B') ORDER BY pid LIMIT 1",
    )
    .get() as { unified_id: string; primary_name: string };
  db.close();
  // Every line loaded; ingest keeps nearly all of them programmes of their own (a few join a programme by its rules).
  assert.equal(records, dataset.bundled + dataset.synthetic);
  assert.ok(synthetic >= dataset.synthetic * 0.95, `${synthetic} of ${dataset.synthetic} synthetic records are programmes`);

  const catalog = new Catalog(file);
  t.after(() => catalog.close());
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' }, {}, { catalog });
  const detail = await app.inject(`/v1/programs/${sample.unified_id}`);
  assert.equal(detail.statusCode, 200);
  assert.match(String(body(detail).provenance.synthetic), /programme of UNI-/);
  const found = await app.inject(`/v1/programs/search?q=${encodeURIComponent(sample.primary_name)}&limit=50&fields=minimal`);
  assert.equal(found.statusCode, 200);
  assert.ok(
    body(found).results.some((r: { unified_id: string }) => r.unified_id === sample.unified_id),
    `a search for ${sample.primary_name} finds it`,
  );
});
