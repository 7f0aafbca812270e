// What a catalogue's source overlays are, as one content-addressed version,
// and how a version is laid into a DATA_DIR (for a server on another machine,
// or a rollback). A version's manifest names, per source, its overlay's name
// and the SHA-256 of each overlay file; its id is the hash of that manifest
// (names left out: the same content is the same version wherever it was
// built). The bundled dataset is not part of it: it ships with the code.
//
// Laying a version in writes each source's overlay directory (unless one with
// the same files is there), then points every source's `current` at it and
// takes the pointer away from sources the version does not hold. The caller
// holds the DATA_DIR's catalogue lock (catalogLock) and builds the catalogue after.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { LockHeld, takePidLock } from '../lib/pid-lock.ts';
import { activeOverlayDirs, sourcesDir } from './overlays.ts';

/** source -> the overlay's name and its files (base name without `.jsonl` -> SHA-256 of the text). */
export type VersionManifest = Record<string, { name: string; files: Record<string, string> }>;

/** An overlay file's content with its hash. */
export interface OverlayFile {
  source: string;
  file: string;
  sha256: string;
  content: string;
}

/** A source, overlay or file name as a manifest may give it (laid in as a path). */
const SAFE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/** Overlay versions of a source kept on disk besides the current one (for a look back and a rollback). */
export const KEEP_OLD_VERSIONS = 3;

const sourceOf = (overlayDir: string) => path.basename(path.dirname(path.dirname(overlayDir)));

/** The overlay files of these version directories, read. */
export function overlayFilesOf(overlayDirs: readonly string[]): OverlayFile[] {
  const out: OverlayFile[] = [];
  for (const dir of overlayDirs) {
    for (const name of readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()) {
      const content = readFileSync(path.join(dir, name), 'utf8');
      out.push({ source: sourceOf(dir), file: name.slice(0, -'.jsonl'.length), sha256: sha256Hex(content), content });
    }
  }
  return out;
}

/** The manifest of these overlay version directories (one per source). */
export function overlayManifest(overlayDirs: readonly string[]): VersionManifest {
  const manifest: VersionManifest = {};
  for (const dir of overlayDirs) manifest[sourceOf(dir)] = { name: path.basename(dir), files: {} };
  for (const f of overlayFilesOf(overlayDirs)) manifest[f.source].files[f.file] = f.sha256;
  return manifest;
}

/** The content address of a manifest: `dv-` and 20 hex digits. */
export function datasetVersionId(manifest: VersionManifest): string {
  const lines = Object.keys(manifest)
    .sort()
    .flatMap((source) =>
      Object.keys(manifest[source].files)
        .sort()
        .map((file) => `${source}/${file} ${manifest[source].files[file]}`),
    );
  return `dv-${sha256Hex(lines.join('\n')).slice(0, 20)}`;
}

/** The dataset version of a DATA_DIR's active overlays. */
export function localVersionId(dataDir: string): string {
  return datasetVersionId(overlayManifest(activeOverlayDirs(dataDir)));
}

/** Takes DATA_DIR's catalogue lock (one process at a time lays overlays in and renames a catalogue); throws LockHeld. */
export function catalogLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  return takePidLock(path.join(dataDir, 'catalog.lock'));
}

/** Waits (up to `timeoutMs`) for DATA_DIR's catalogue lock: a sync or rollback waits for a pull building on this machine. */
export async function waitForCatalogLock(dataDir: string, timeoutMs = 15 * 60_000): Promise<() => void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return catalogLock(dataDir);
    } catch (err) {
      if (!(err instanceof LockHeld) || Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** True when `dir` holds exactly these files with these hashes. */
function holds(dir: string, files: Record<string, string>): boolean {
  if (!existsSync(dir)) return false;
  const present = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  if (present.length !== Object.keys(files).length) return false;
  return Object.entries(files).every(([file, hash]) => {
    const full = path.join(dir, `${file}.jsonl`);
    return existsSync(full) && sha256Hex(readFileSync(full, 'utf8')) === hash;
  });
}

/** Replaces a source's `current` pointer (a rename: never torn). */
export function pointSourceAt(dataDir: string, source: string, name: string): void {
  const pointer = path.join(sourcesDir(dataDir), source, 'current');
  writeFileSync(`${pointer}.tmp`, `${name}\n`);
  renameSync(`${pointer}.tmp`, pointer);
}

/**
 * Lays `manifest` into DATA_DIR (see the header); `content` reads a file by
 * its hash. Returns the version directories, which are then the active ones.
 */
export async function layIn(dataDir: string, manifest: VersionManifest, content: (sha256: string) => Promise<string>): Promise<string[]> {
  const dirs: string[] = [];
  for (const source of Object.keys(manifest).sort()) {
    const { name, files } = manifest[source];
    // Names become paths under DATA_DIR: plain names only, whatever the store holds.
    for (const part of [source, name, ...Object.keys(files)]) {
      if (!SAFE_NAME.test(part)) throw new Error(`dataset version manifest names ${JSON.stringify(part.slice(0, 40))}: not a plain file name`);
    }
    const versionsDir = path.join(sourcesDir(dataDir), source, 'versions');
    let dir = path.join(versionsDir, name);
    if (!holds(dir, files)) {
      // A directory of that name with other files (never expected) is left alone.
      if (existsSync(dir)) dir = path.join(versionsDir, `${name}-${datasetVersionId({ [source]: manifest[source] }).slice(3, 11)}`);
      if (!holds(dir, files)) {
        const staging = `${dir}.staging`;
        rmSync(staging, { recursive: true, force: true });
        mkdirSync(staging, { recursive: true });
        for (const [file, hash] of Object.entries(files)) {
          const text = await content(hash);
          if (sha256Hex(text) !== hash) throw new Error(`overlay file ${source}/${file} does not match its hash ${hash.slice(0, 12)}`);
          writeFileSync(path.join(staging, `${file}.jsonl`), text);
        }
        rmSync(dir, { recursive: true, force: true });
        renameSync(staging, dir);
      }
    }
    dirs.push(dir);
  }
  for (const dir of dirs) pointSourceAt(dataDir, sourceOf(dir), path.basename(dir));
  // Sources this version does not hold are served without an overlay.
  const root = sourcesDir(dataDir);
  if (existsSync(root)) {
    for (const source of readdirSync(root)) {
      if (!(source in manifest)) rmSync(path.join(root, source, 'current'), { force: true });
    }
  }
  return dirs;
}

/** Removes a source's overlay versions beyond the current one and the KEEP_OLD_VERSIONS before it. */
export function pruneVersions(dataDir: string, source: string): void {
  const versionsDir = path.join(sourcesDir(dataDir), source, 'versions');
  if (!existsSync(versionsDir)) return;
  const current = activeOverlayDirs(dataDir).find((d) => sourceOf(d) === source);
  const old = readdirSync(versionsDir)
    .filter((v) => (current ? v !== path.basename(current) : true) && !v.endsWith('.staging'))
    .sort();
  for (const v of old.slice(0, Math.max(0, old.length - KEEP_OLD_VERSIONS))) rmSync(path.join(versionsDir, v), { recursive: true, force: true });
}
