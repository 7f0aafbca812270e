// A server (or a sync about to start) following the dataset version the
// state store names as current: the head's overlays are laid into DATA_DIR
// (their files come from the store, ingest/dataset-version.ts#layIn) and
// the catalogue is built from them and renamed into place, which the serving
// processes of this machine swap in (catalog/live.ts). Nothing is recorded in
// the change feed: the version's events were recorded when it was published.
// With no version published yet, DATA_DIR keeps what it has.
import type { Config } from '../config.ts';
import { catalogLock, layIn, localVersionId, pruneVersions, waitForCatalogLock } from '../ingest/dataset-version.ts';
import { ensureCatalog } from '../ingest/ensure.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import { LockHeld } from '../lib/pid-lock.ts';
import type { StateStore } from '../state/store.ts';

export type PullOutcome =
  | { kind: 'none' }
  | { kind: 'current'; versionId: string }
  | { kind: 'pulled'; versionId: string; built: boolean }
  | { kind: 'busy'; pid: number };

export interface PullOptions {
  /** Wait for another process of this machine that holds the catalogue lock (else answer `busy`). */
  wait?: boolean;
  progress?: (line: string) => void;
}

/** Lays in and builds the head when DATA_DIR does not serve it yet. */
export async function pullHead(config: Pick<Config, 'dataDir' | 'datasetDir'>, store: StateStore, options: PullOptions = {}): Promise<PullOutcome> {
  const { versionId } = await store.catalogVersions.head();
  if (versionId === null) return { kind: 'none' };
  let release: () => void;
  try {
    release = options.wait ? await waitForCatalogLock(config.dataDir) : catalogLock(config.dataDir);
  } catch (err) {
    if (err instanceof LockHeld) return { kind: 'busy', pid: err.pid };
    throw err;
  }
  try {
    const version = await store.catalogVersions.version(versionId);
    if (!version) throw new Error(`the current dataset version ${versionId} is not in the store`);
    const laid = localVersionId(config.dataDir) !== versionId;
    if (laid) {
      options.progress?.(`laying in dataset version ${versionId}`);
      await layIn(config.dataDir, version.manifest, async (sha) => {
        const text = await store.catalogVersions.file(sha);
        if (text === null) throw new Error(`overlay file ${sha.slice(0, 12)} of ${versionId} is not in the store`);
        return text;
      });
      for (const source of Object.keys(version.manifest)) pruneVersions(config.dataDir, source);
    }
    const { built } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir, (e) => {
      if (e.type === 'file-start') options.progress?.(`building catalogue: ${e.loader}`);
    });
    return laid || built ? { kind: 'pulled', versionId, built } : { kind: 'current', versionId };
  } finally {
    release();
  }
}
