// A sync's output becomes a dataset version here, or nothing does:
// 1. its overlay files are written into a new version directory
//    (DATA_DIR/sources/<source>/versions/<stamp>, ingest/overlays.ts);
// 2. with DATABASE_URL (servers on several machines), DATA_DIR is first
//    brought to the version the store names as current (versions/pull.ts), so
//    the other sources' overlays are the cluster's, not this machine's;
// 3. the version — every other source's active overlay and this new one — is
//    published (versions/publish.ts): the catalogue is built and validated
//    into a temporary file (any rejected overlay record fails it), the
//    version, its files and its change events are recorded in the state store
//    in the transaction that moves the head, and the catalogue is renamed
//    over DATA_DIR/catalog.sqlite, which every serving process of this
//    machine picks up by itself (catalog/live.ts); other machines follow the head.
// Should another source's sync publish in between, the version is composed
// again over the new head (at most PUBLISH_ATTEMPTS times).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { activeOverlayDirs, sourcesDir } from '../ingest/overlays.ts';
import { layIn, waitForCatalogLock } from '../ingest/dataset-version.ts';
import { openStateStore } from '../state/index.ts';
import { HeadMoved, publishVersion, type PublishOutcome } from '../versions/publish.ts';
import type { Config } from '../config.ts';

const PUBLISH_ATTEMPTS = 3;

export interface PublishInput {
  config: Pick<Config, 'dataDir' | 'datasetDir' | 'databaseUrl'>;
  source: string;
  /** Overlay lines per dataset file (`programs`, `laws`, `law_articles`, …). */
  files: Record<string, readonly Record<string, unknown>[]>;
  /** Written beside the overlay as report.json and stored with the version, once the outcome is known. */
  report: (outcome: PublishOutcome) => unknown;
  recordChanges: boolean;
  log: (line: string) => void;
}

export interface PublishResult {
  /** The dataset version (content address of the overlays, ingest/dataset-version.ts). */
  version: string;
  /** The name of this source's overlay directory. */
  overlay: string;
  catalogVersion: string;
  changes: string | null;
}

export function versionStamp(now = new Date()): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

export async function publishOverlay(input: PublishInput): Promise<PublishResult> {
  const { dataDir } = input.config;
  const sourceDir = path.join(sourcesDir(dataDir), input.source);
  const versionsDir = path.join(sourceDir, 'versions');
  mkdirSync(versionsDir, { recursive: true });
  let name = versionStamp();
  while (existsSync(path.join(versionsDir, name))) name = `${name}-${process.pid}`;
  const dir = path.join(versionsDir, name);
  const staging = `${dir}.staging`;
  mkdirSync(staging, { recursive: true });
  for (const [file, lines] of Object.entries(input.files)) {
    writeFileSync(path.join(staging, `${file}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
  }
  renameSync(staging, dir);

  const store = await openStateStore(input.config);
  const release = await waitForCatalogLock(dataDir);
  let published = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const { versionId: head } = await store.catalogVersions.head();
      const current = head === null ? null : await store.catalogVersions.version(head);
      // Several machines: compose over the cluster's current version, not this DATA_DIR's.
      if (input.config.databaseUrl && current) {
        await layIn(dataDir, current.manifest, async (sha) => (await store.catalogVersions.file(sha)) ?? '');
      }
      const basisDirs = activeOverlayDirs(dataDir);
      const others = basisDirs.filter((d) => path.dirname(path.dirname(d)) !== sourceDir);
      try {
        let stored: unknown = null;
        const outcome = await publishVersion({
          config: input.config,
          store,
          overlayDirs: [...others, dir],
          expectedHead: head,
          basisDirs,
          reason: `sync ${input.source}`,
          report: (o) => (stored = input.report(o)),
          recordChanges: input.recordChanges,
          log: input.log,
        });
        writeFileSync(path.join(dir, 'report.json'), JSON.stringify(stored, null, 2));
        published = true;
        return { version: outcome.versionId, overlay: name, catalogVersion: outcome.catalogVersion, changes: outcome.changes };
      } catch (err) {
        if (!(err instanceof HeadMoved) || attempt >= PUBLISH_ATTEMPTS) throw err;
        input.log(`${err.message}; composing the version again`);
      }
    }
  } finally {
    release();
    await store.close();
    if (!published) rmSync(dir, { recursive: true, force: true });
  }
}
