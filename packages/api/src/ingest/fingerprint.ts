// What a catalogue was built from: the code that shapes it (loaders, derived
// fields, text normalisation) and the dataset files (name, size, mtime). A
// catalogue whose fingerprint differs from the current one is rebuilt at
// start, so a code or data change never serves a stale file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_SCHEMA_VERSION } from './schema-version.ts';
import { overlayStamp } from './overlays.ts';
import { RECORD_CLASS_OVERRIDES_FILE } from './classify.ts';

/** The reviewed data files (data/overrides/: the classifier's overrides, reviewed record additions). */
const OVERRIDES_DIR = path.dirname(RECORD_CLASS_OVERRIDES_FILE);

const INGEST_DIR = import.meta.dirname;
const CATALOG_DIR = path.join(INGEST_DIR, '..', 'catalog');

/** ingest/'s own files that shape the file, the catalogue definitions they share with serving, plus `extra` (the sources of loaders from elsewhere, see ingest.ts#CatalogPlan). */
export function catalogSourceFiles(extra: readonly string[] = []): string[] {
  const tsFiles = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(dir, f));
  // The record-set specs name the typed tables' columns, derived values and search text.
  const loaders = [...tsFiles(path.join(INGEST_DIR, 'loaders')), ...tsFiles(path.join(CATALOG_DIR, 'record-sets'))];
  // Every module of ingest/ itself (derived fields, names, places, the classifier, canonical programmes, …): a new rule module counts without an edit here;
  // and the reviewed data files (a new one counts without an edit here).
  const reviewed = readdirSync(OVERRIDES_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(OVERRIDES_DIR, f));
  const shared = [...tsFiles(INGEST_DIR), ...reviewed, ...['text-query.ts', 'search-text.ts'].map((f) => path.join(CATALOG_DIR, f))];
  return [...new Set([...loaders, ...shared, ...extra])].sort();
}

export function catalogFingerprint(datasetDir: string, extraSources: readonly string[] = [], overlayDirs: readonly string[] = []): string {
  const hash = createHash('sha256');
  hash.update(`schema:${CATALOG_SCHEMA_VERSION}\n`);
  for (const file of catalogSourceFiles(extraSources)) {
    hash.update(`${path.basename(file)}\n`);
    hash.update(readFileSync(file));
  }
  let entries: string[] = [];
  try {
    entries = readdirSync(datasetDir)
      .filter((f) => /\.jsonl(\.gz)?$/.test(f))
      .sort();
  } catch {
    entries = [];
  }
  for (const name of entries) {
    const st = statSync(path.join(datasetDir, name));
    hash.update(`${name}:${st.size}:${Math.floor(st.mtimeMs)}\n`);
  }
  // The source overlays merged in (overlays.ts): a sync changes the fingerprint.
  const overlays = overlayStamp(overlayDirs);
  if (overlays) hash.update(`${overlays}\n`);
  return hash.digest('hex').slice(0, 32);
}
