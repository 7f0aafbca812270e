// Publishing a dataset version (a sync's new overlay, or a rollback to an
// earlier version) in the state store, so that every server follows it:
// 1. the catalogue is built from the dataset and the version's overlays into a
//    temporary file, validated like every ingest (a rejected overlay record fails it);
// 2. the overlay files are stored by their hash (catalog_files);
// 3. in ONE transaction, under the head's row lock: the head must still be the
//    version the overlays were composed against (else HeadMoved: the caller
//    composes again over the new head); the version is added (with the
//    catalogue before it as a `basis` version when the store had none, so
//    that a rollback has somewhere to go); its change events are recorded
//    (changes/record.ts); the head moves. So a version's events are recorded
//    once, by the version, and never by the servers that follow it;
// 4. the DATA_DIR's pointers are set and the catalogue is renamed into place,
//    which every serving process of this machine picks up (catalog/live.ts);
//    other machines pull the head (pull.ts).
// The caller holds DATA_DIR's catalogue lock (ingest/dataset-version.ts#catalogLock).
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { catalogPath, ingest } from '../ingest/ingest.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import { datasetVersionId, overlayFilesOf, overlayManifest, pointSourceAt, pruneVersions } from '../ingest/dataset-version.ts';
import { sourcesDir } from '../ingest/overlays.ts';
import { Catalog } from '../catalog/catalog.ts';
import { versionSnapshot } from '../changes/tracked.ts';
import { describeOutcome, recordDatasetVersion } from '../changes/record.ts';
import type { StateStore } from '../state/store.ts';
import type { Config } from '../config.ts';

/** Another publication moved the head since the overlays were composed. */
export class HeadMoved extends Error {}

export interface PublishVersionInput {
  config: Pick<Config, 'dataDir' | 'datasetDir'>;
  store: StateStore;
  /** The version's overlay directories in DATA_DIR (one per source). */
  overlayDirs: readonly string[];
  /** The head these overlays were composed against. */
  expectedHead: string | null;
  /** The overlay directories of the catalogue being replaced (the basis version when the store has none). */
  basisDirs: readonly string[];
  /** What published it: `sync jgrants`, `rollback`, … */
  reason: string;
  /** The report stored with the version, made once its outcome is known. */
  report: (outcome: PublishOutcome) => unknown;
  recordChanges: boolean;
  log: (line: string) => void;
}

export interface PublishOutcome {
  versionId: string;
  /** The fingerprint of the catalogue built (Catalog#version). */
  catalogVersion: string;
  /** What the change feed recorded, one line (null: not asked to record). */
  changes: string | null;
}

/** `host:pid`: who published a version or serves one. */
export const processName = (): string => `${hostname()}:${process.pid}`;

export async function publishVersion(input: PublishVersionInput): Promise<PublishOutcome> {
  const { dataDir, datasetDir } = input.config;
  const manifest = overlayManifest(input.overlayDirs);
  const versionId = datasetVersionId(manifest);
  const target = catalogPath(dataDir);
  const temp = `${target}.publish-${process.pid}`;
  input.log(`building the catalogue of dataset version ${versionId}`);
  await ingest({ plan: CATALOG_PLAN, dataDir, datasetDir, overlayDirs: input.overlayDirs, target: temp });
  try {
    const at = new Date().toISOString();
    const basisManifest = overlayManifest(input.basisDirs);
    const basisId = datasetVersionId(basisManifest);
    const files = [...overlayFilesOf(input.overlayDirs), ...overlayFilesOf(input.basisDirs)];
    const missing = new Set(await input.store.catalogVersions.missingFiles([...new Set(files.map((f) => f.sha256))]));
    await input.store.catalogVersions.putFiles(
      files.filter((f) => missing.delete(f.sha256)),
      at,
    );

    // Snapshots before the transaction: reading a catalogue takes a while.
    const built = new Catalog(temp);
    const previous = input.recordChanges && existsSync(target) && (await input.store.changes.latestVersion()) === null ? new Catalog(target) : null;
    try {
      const snapshot = input.recordChanges ? versionSnapshot(built.db) : null;
      const baseline = previous ? versionSnapshot(previous.db) : null;
      const outcome = await input.store.atomically(async (tx) => {
        const head = await tx.catalogVersions.lockHead();
        if (head.versionId !== input.expectedHead) throw new HeadMoved(`the current version moved from ${input.expectedHead} to ${head.versionId}`);
        let parent = head.versionId;
        if (parent === null && basisId !== versionId) {
          await tx.catalogVersions.addVersion({
            id: basisId,
            parent: null,
            manifest: basisManifest,
            reason: 'basis (the catalogue before the first publication)',
            report: null,
            publishedBy: processName(),
            publishedAt: at,
            feedVersion: null,
          });
          parent = basisId;
        }
        // A store that never saw a feed version gets the catalogue being replaced as its
        // baseline first, so that this version's change events say what changed.
        if (previous && baseline) input.log(describeOutcome(await recordDatasetVersion(previous, tx, { snapshot: baseline })));
        const recorded = snapshot ? await recordDatasetVersion(built, tx, { snapshot }) : null;
        const result: PublishOutcome = { versionId, catalogVersion: built.version, changes: recorded ? describeOutcome(recorded) : null };
        await tx.catalogVersions.addVersion({
          id: versionId,
          parent: parent === versionId ? null : parent,
          manifest,
          reason: input.reason,
          report: input.report(result),
          publishedBy: processName(),
          publishedAt: at,
          feedVersion: recorded?.recorded ? recorded.version.version : null,
        });
        await tx.catalogVersions.setHead(versionId, processName(), at);
        return result;
      });
      if (outcome.changes) input.log(outcome.changes);
      // 4. This machine serves it now; the pointer first (a crash before the
      // rename leaves a pointer newer than the catalogue: the next start rebuilds).
      closeQuietly(built);
      if (previous) closeQuietly(previous);
      pointAt(dataDir, input.overlayDirs);
      renameSync(temp, target);
      for (const dir of input.overlayDirs) pruneVersions(dataDir, path.basename(path.dirname(path.dirname(dir))));
      return outcome;
    } finally {
      closeQuietly(built);
      if (previous) closeQuietly(previous);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

function closeQuietly(catalog: Catalog): void {
  try {
    catalog.close();
  } catch {
    // closed already
  }
}

/** Points every source at its directory among `overlayDirs`; sources without one lose their pointer. */
function pointAt(dataDir: string, overlayDirs: readonly string[]): void {
  const active = new Map(overlayDirs.map((d) => [path.basename(path.dirname(path.dirname(d))), path.basename(d)]));
  for (const [source, name] of active) pointSourceAt(dataDir, source, name);
  const root = sourcesDir(dataDir);
  if (!existsSync(root)) return;
  for (const source of readdirSync(root)) if (!active.has(source)) rmSync(path.join(root, source, 'current'), { force: true });
}
