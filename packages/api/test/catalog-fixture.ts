// The catalogues tests read, built once and reused while current (ingest
// renames a finished file into place, so concurrent builders never see a
// half-built one; the fingerprint rebuilds them when code or data change).
// - the test catalogue: the bundled dataset, as `npm start` serves it;
// - the bids catalogue: the bundled dataset plus the fixture bids.jsonl
//   (the dataset has no bid records), for tests that need bid rows.
import path from 'node:path';
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { ensureCatalog } from '../src/ingest/ensure.ts';
import { CATALOG_PLAN } from '../src/ingest/plan.ts';
import { BUNDLED_DATASET_DIR, REPO_ROOT } from '../src/config.ts';
import { deriveDataset, DERIVED_DATASET_DIR, type DerivedManifest } from '../../../scripts/derive-dataset.ts';

export const TEST_DATA_DIR = path.join(REPO_ROOT, 'var', 'test-catalog');
export const BIDS_FIXTURE = path.join(REPO_ROOT, 'packages', 'api', 'test', 'fixtures', 'bids', 'bids.jsonl');

export async function ensureTestCatalog(): Promise<string> {
  const { path: file } = await ensureCatalog(CATALOG_PLAN, TEST_DATA_DIR, BUNDLED_DATASET_DIR);
  return file;
}

/** The test catalogue as `dataDir`'s catalog.sqlite, for a server started over that directory (a hard link, else a copy). */
export async function placeTestCatalog(dataDir: string): Promise<void> {
  const catalog = await ensureTestCatalog();
  try {
    linkSync(catalog, path.join(dataDir, 'catalog.sqlite'));
  } catch {
    copyFileSync(catalog, path.join(dataDir, 'catalog.sqlite'));
  }
}

/** A dataset directory of symlinks: the bundled files plus `extra` (name -> file). */
export function linkedDataset(dir: string, extra: Record<string, string>): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(BUNDLED_DATASET_DIR)) symlinkSync(path.join(BUNDLED_DATASET_DIR, f), path.join(dir, f));
  for (const [name, file] of Object.entries(extra)) symlinkSync(file, path.join(dir, name));
  return dir;
}

export async function ensureBidsCatalog(): Promise<string> {
  const datasetDir = linkedDataset(path.join(REPO_ROOT, 'var', 'test-dataset-bids'), { 'bids.jsonl': BIDS_FIXTURE });
  const { path: file } = await ensureCatalog(CATALOG_PLAN, path.join(REPO_ROOT, 'var', 'test-catalog-bids'), datasetDir);
  return file;
}

/**
 * The derived second dataset version (scripts/derive-dataset.ts: records
 * added, removed and edited) and its catalogue, with the manifest of the
 * change events that ingesting it after the bundled dataset must record.
 */
export async function ensureDerivedCatalog(): Promise<{ file: string; manifest: DerivedManifest; datasetDir: string }> {
  const manifest = await deriveDataset(BUNDLED_DATASET_DIR, DERIVED_DATASET_DIR);
  const { path: file } = await ensureCatalog(CATALOG_PLAN, path.join(REPO_ROOT, 'var', 'test-catalog-derived'), DERIVED_DATASET_DIR);
  return { file, manifest, datasetDir: DERIVED_DATASET_DIR };
}
