// A sync's output becomes a dataset version here, or nothing does:
// 1. its overlay files are written into a new version directory
//    (DATA_DIR/sources/<source>/versions/<stamp>, ingest/overlays.ts);
// 2. a catalogue is built from the dataset plus every source's active overlay,
//    this new one instead of the source's current, into a temporary file —
//    validated like every ingest, and any rejected overlay record fails it;
// 3. only then the source's `current` pointer is replaced (rename) and the
//    catalogue is renamed over DATA_DIR/catalog.sqlite, which every serving
//    process picks up by itself (catalog/live.ts);
// 4. the dataset version and its change events are recorded in the state
//    store (changes/record.ts), as `cli ingest` does.
// A crash between the two renames leaves a pointer newer than the catalogue;
// the next start's fingerprint check (ingest/ensure.ts) rebuilds it.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalogPath, ingest } from '../ingest/ingest.ts';
import { activeOverlayDirs, sourcesDir } from '../ingest/overlays.ts';
import { CATALOG_PLAN } from '../ingest/plan.ts';
import { Catalog } from '../catalog/catalog.ts';
import { openStateStore } from '../state/index.ts';
import { describeOutcome, recordDatasetVersion } from '../changes/record.ts';
import type { Config } from '../config.ts';

/** Versions of a source kept on disk besides the current one (for a look back, not served). */
const KEEP_OLD_VERSIONS = 3;

export interface PublishInput {
  config: Pick<Config, 'dataDir' | 'datasetDir' | 'databaseUrl'>;
  source: string;
  /** Overlay lines per dataset file (`programs`, `laws`, `law_articles`). */
  files: Record<string, readonly Record<string, unknown>[]>;
  /** Written beside the overlay as report.json. */
  report: unknown;
  recordChanges: boolean;
  log: (line: string) => void;
}

export interface PublishResult {
  version: string;
  catalogPath: string;
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
  const { dataDir, datasetDir } = input.config;
  const sourceDir = path.join(sourcesDir(dataDir), input.source);
  const versionsDir = path.join(sourceDir, 'versions');
  mkdirSync(versionsDir, { recursive: true });
  let version = versionStamp();
  while (existsSync(path.join(versionsDir, version))) version = `${version}-${process.pid}`;
  const dir = path.join(versionsDir, version);
  const staging = `${dir}.staging`;
  mkdirSync(staging, { recursive: true });
  for (const [file, lines] of Object.entries(input.files)) {
    writeFileSync(path.join(staging, `${file}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
  }
  writeFileSync(path.join(staging, 'report.json'), JSON.stringify(input.report, null, 2));
  renameSync(staging, dir);

  const others = activeOverlayDirs(dataDir).filter((d) => path.dirname(path.dirname(d)) !== sourceDir);
  const target = catalogPath(dataDir);
  const temp = `${target}.sync-${input.source}-${process.pid}`;
  try {
    input.log(`building the catalogue with the new ${input.source} overlay`);
    await ingest({ plan: CATALOG_PLAN, dataDir, datasetDir, overlayDirs: [...others, dir], target: temp });
  } catch (err) {
    rmSync(temp, { force: true });
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // A store that never saw a version gets the catalogue being replaced as its
  // baseline first, so that this version's change events say what the sync changed.
  if (input.recordChanges && existsSync(target)) {
    const store = await openStateStore(input.config);
    const previous = new Catalog(target);
    try {
      if ((await store.changes.latestVersion()) === null) input.log(describeOutcome(await recordDatasetVersion(previous, store)));
    } finally {
      previous.close();
      await store.close();
    }
  }
  const pointer = path.join(sourceDir, 'current');
  writeFileSync(`${pointer}.tmp`, `${version}\n`);
  renameSync(`${pointer}.tmp`, pointer);
  renameSync(temp, target);
  pruneVersions(versionsDir, version);

  const catalog = new Catalog(target);
  let changes: string | null = null;
  try {
    const catalogVersion = catalog.version;
    if (input.recordChanges) {
      const store = await openStateStore(input.config);
      try {
        changes = describeOutcome(await recordDatasetVersion(catalog, store));
      } finally {
        await store.close();
      }
    }
    return { version, catalogPath: target, catalogVersion, changes };
  } finally {
    catalog.close();
  }
}

function pruneVersions(versionsDir: string, current: string): void {
  const old = readdirSync(versionsDir)
    .filter((v) => v !== current && !v.endsWith('.staging'))
    .sort();
  for (const v of old.slice(0, Math.max(0, old.length - KEEP_OLD_VERSIONS))) rmSync(path.join(versionsDir, v), { recursive: true, force: true });
}
