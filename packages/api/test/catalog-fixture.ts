// The catalogue every test reads: built once from the bundled dataset into
// var/test-catalog and reused while it is current (ingest renames a finished
// file into place, so concurrent builders never see a half-built one).
import path from 'node:path';
import { ensureCatalog } from '../src/catalog/ensure.ts';
import { BUNDLED_DATASET_DIR, REPO_ROOT } from '../src/config.ts';

export const TEST_DATA_DIR = path.join(REPO_ROOT, 'var', 'test-catalog');

export async function ensureTestCatalog(): Promise<string> {
  const { path: file } = await ensureCatalog(TEST_DATA_DIR, BUNDLED_DATASET_DIR);
  return file;
}
