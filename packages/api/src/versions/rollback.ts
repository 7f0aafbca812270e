// `cli versions rollback [--to ID]`: make an earlier dataset version the
// current one again — by default the parent of the current version (the one
// it replaced). It is published like a new one (publish.ts): its catalogue is
// built and validated here, the head moves back in one transaction that also
// records the change events of going back (the feed tells readers what the
// rollback withdrew or restored), and every server follows it.
import type { Config } from '../config.ts';
import { layIn, waitForCatalogLock } from '../ingest/dataset-version.ts';
import type { StateStore } from '../state/store.ts';
import { publishVersion, type PublishOutcome } from './publish.ts';

export class RollbackRefused extends Error {}

export async function rollback(
  config: Pick<Config, 'dataDir' | 'datasetDir'>,
  store: StateStore,
  options: { to?: string; recordChanges: boolean; log: (line: string) => void },
): Promise<PublishOutcome & { from: string }> {
  const release = await waitForCatalogLock(config.dataDir);
  try {
    const { versionId: head } = await store.catalogVersions.head();
    if (head === null) throw new RollbackRefused('no dataset version has been published: nothing to roll back');
    const current = await store.catalogVersions.version(head);
    const targetId = options.to ?? current?.parent ?? null;
    if (targetId === null) throw new RollbackRefused(`dataset version ${head} has no previous version`);
    if (targetId === head) throw new RollbackRefused(`dataset version ${head} is the current one already`);
    const target = await store.catalogVersions.version(targetId);
    if (!target) throw new RollbackRefused(`no dataset version ${targetId} in the store (npm run cli -- versions lists them)`);
    const read = async (sha: string) => (await store.catalogVersions.file(sha)) ?? '';
    const dirs = await layIn(config.dataDir, target.manifest, read);
    try {
      const outcome = await publishVersion({
        config,
        store,
        overlayDirs: dirs,
        expectedHead: head,
        basisDirs: dirs,
        reason: `rollback from ${head}`,
        report: () => target.report,
        recordChanges: options.recordChanges,
        log: options.log,
      });
      return { ...outcome, from: head };
    } catch (err) {
      // Nothing moved: this DATA_DIR points at the version it serves again.
      if (current) await layIn(config.dataDir, current.manifest, read);
      throw err;
    }
  } finally {
    release();
  }
}
