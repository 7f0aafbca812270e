// The one-time work before serving, done once per start by the process that
// owns it (the cluster primary, or the single process): apply the state
// store's migrations; with DATABASE_URL, bring DATA_DIR to the dataset
// version the store names as current (versions/pull.ts), so that a server
// started later serves it from its first answer; build the catalogue when it
// is missing or stale; record the dataset version in the change feed.
// Everything opened here is closed again: the serving processes open their own handles.
//
// Who records change events: without DATABASE_URL, as before, the start that
// builds the catalogue (or meets a store without a version). With it, only a
// publication (a sync, a rollback) records them, once, by the version: a
// server only records the baseline into an empty feed, so a replica starting
// on a fresh DATA_DIR never writes its own diff into the shared feed.
import type { Config } from '../config.ts';
import { ensureCatalog } from '../ingest/ensure.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import { Catalog } from '../catalog/catalog.ts';
import { openStateStore } from '../state/index.ts';
import { describeOutcome, recordDatasetVersion } from '../changes/record.ts';
import { pullHead } from '../versions/pull.ts';

/** Returns the path of the catalogue file to serve. */
export async function prepareToServe(config: Readonly<Config>): Promise<string> {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const state = await openStateStore(config); // migrates
  try {
    if (config.databaseUrl) {
      try {
        const pulled = await pullHead(config, state, { wait: true, progress: say });
        if (pulled.kind === 'pulled') say(`serving dataset version ${pulled.versionId} (pulled from the state store)`);
      } catch (err) {
        // A version that cannot be laid in or built here must not keep the server down: it serves what
        // DATA_DIR holds, and the follower tries again (process/follow.ts).
        say(`the current dataset version could not be pulled (${err instanceof Error ? err.message : String(err)}); serving the catalogue on disk`);
      }
    }
    const { path, built } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir, (e) => {
      if (e.type === 'file-start') say(`building catalogue: ${e.loader}`);
    });
    if (built) say(`catalogue built at ${path}`);
    const feedEmpty = (await state.changes.latestVersion()) === null;
    if (feedEmpty || (built && !config.databaseUrl)) {
      const catalog = new Catalog(path);
      try {
        say(describeOutcome(await recordDatasetVersion(catalog, state)));
      } finally {
        catalog.close();
      }
    }
    return path;
  } finally {
    await state.close();
  }
}
