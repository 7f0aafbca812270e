// The one-time work before serving, done once per start by the process that
// owns it (the cluster primary, or the single process): build the catalogue
// when it is missing or stale, apply the state store's migrations, record
// the dataset version in the change feed. Everything opened here is closed
// again: the serving processes open their own handles.
import type { Config } from '../config.ts';
import { ensureCatalog } from '../ingest/ensure.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import { Catalog } from '../catalog/catalog.ts';
import { openStateStore } from '../state/index.ts';
import { describeOutcome, recordDatasetVersion } from '../changes/record.ts';

/** Returns the path of the catalogue file to serve. */
export async function prepareToServe(config: Readonly<Config>): Promise<string> {
  const { path, built } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir, (e) => {
    if (e.type === 'file-start') process.stderr.write(`building catalogue: ${e.loader}\n`);
  });
  if (built) console.error(`catalogue built at ${path}`);
  const state = await openStateStore(config); // migrates
  try {
    // The first start that builds the catalogue (or meets a store without a
    // version) records its dataset version; `cli ingest` does it otherwise.
    if (built || (await state.changes.latestVersion()) === null) {
      const catalog = new Catalog(path);
      try {
        console.error(describeOutcome(await recordDatasetVersion(catalog, state)));
      } finally {
        catalog.close();
      }
    }
  } finally {
    await state.close();
  }
  return path;
}
