// Overlays: records a source sync (src/sources/*, `cli sync …`) wrote under
// DATA_DIR/sources/<source>/, merged into the bundled dataset at ingest. The
// dataset files stay untouched; the served catalogue is always "dataset +
// the active overlay of every source", so `cli ingest` and a server start
// rebuild the same catalogue a sync published.
//
// Layout of one source:
//   DATA_DIR/sources/<source>/current          the active version's name (one line; replaced by rename)
//   DATA_DIR/sources/<source>/versions/<name>/ <record set file>.jsonl, one per record set it touches
//
// An overlay line is a dataset record plus `_overlay`:
//   "new"     a whole record, added (or replacing a base record of the same key)
//   "enrich"  the key and the fields it brings; merged over the base record
//             (its `_provenance` merged key by key); dropped with a warning
//             when the base no longer holds the key
// For a file whose rule is `replace-group` (the article text of a law) every
// base record of a group the overlay names is replaced by the overlay's.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readJsonl, type JsonlLine } from './jsonl.ts';

export interface OverlayRule {
  /** The record's key (patch) or group (replace-group); null when the record has none. */
  key: (record: Record<string, unknown>) => string | null;
  mode: 'patch' | 'replace-group';
  /** A line without `_overlay` is read as this kind (files written before they were loaded; else such a line is rejected). */
  implicitKind?: 'new';
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Which dataset files may be overlaid, and how. */
export const OVERLAY_RULES: Readonly<Record<string, OverlayRule>> = {
  programs: { key: (r) => str(r.unified_id), mode: 'patch' },
  laws: { key: (r) => str(r.law_slug), mode: 'patch' },
  law_articles: { key: (r) => str(r.law_slug), mode: 'replace-group' },
  // Only overlays hold these (the e-Gov sync's kept revisions and their text); the
  // revisions file was written without `_overlay` before it was loaded.
  law_revisions: { key: (r) => str(r.law_revision_id), mode: 'patch', implicitKind: 'new' },
  law_revision_articles: { key: (r) => str(r.law_revision_id), mode: 'replace-group' },
};

export function sourcesDir(dataDir: string): string {
  return path.join(dataDir, 'sources');
}

/** The version directory each source's `current` pointer names, sorted by source name. */
export function activeOverlayDirs(dataDir: string): string[] {
  const root = sourcesDir(dataDir);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const source of readdirSync(root).sort()) {
    const pointer = path.join(root, source, 'current');
    if (!existsSync(pointer)) continue;
    const name = readFileSync(pointer, 'utf8').trim();
    const dir = path.join(root, source, 'versions', name);
    if (name && existsSync(dir)) out.push(dir);
  }
  return out;
}

/** The overlay files of one dataset file, in source order. */
export function overlayFiles(overlayDirs: readonly string[], file: string): string[] {
  return overlayDirs.map((dir) => path.join(dir, `${file}.jsonl`)).filter((f) => existsSync(f));
}

/** Fingerprint input: every overlay file's name, size and mtime (see fingerprint.ts). */
export function overlayStamp(overlayDirs: readonly string[]): string {
  const lines: string[] = [];
  for (const dir of overlayDirs) {
    for (const name of readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()) {
      const st = statSync(path.join(dir, name));
      lines.push(`overlay:${path.basename(path.dirname(path.dirname(dir)))}/${name}:${st.size}:${Math.floor(st.mtimeMs)}`);
    }
  }
  return lines.join('\n');
}

/** A line of the merged stream: which file it came from (for the rejection report). */
export type MergedLine = JsonlLine & { file: string; overlay: boolean };

interface OverlayRecord {
  file: string;
  lineNo: number;
  record: Record<string, unknown>;
}

/**
 * The base file's lines (none when the dataset has no such file) with the
 * overlays applied: enriched in place, replaced groups dropped, new records
 * after the base. Malformed overlay lines and overlay records without a key
 * are yielded as failed lines (the caller rejects them); `warn` hears about
 * enrichments whose base record is gone.
 */
export async function* mergeOverlays(
  baseFile: string | null,
  overlays: readonly string[],
  rule: OverlayRule,
  warn: (message: string) => void,
): AsyncGenerator<MergedLine> {
  const enrich = new Map<string, OverlayRecord>();
  const added: OverlayRecord[] = [];
  const groups = new Set<string>();
  const label = (file: string) => path.join(...file.split(path.sep).slice(-4));
  for (const file of overlays) {
    for await (const line of readJsonl(file)) {
      if (!line.ok) {
        yield { ...line, file: label(file), overlay: true };
        continue;
      }
      const { _overlay: written, ...record } = line.record;
      const kind = written ?? rule.implicitKind;
      const key = rule.key(record);
      if (key === null || (kind !== 'new' && kind !== 'enrich')) {
        yield { lineNo: line.lineNo, ok: false, error: 'overlay record without a key or an _overlay of "new"/"enrich"', file: label(file), overlay: true };
        continue;
      }
      const entry = { file: label(file), lineNo: line.lineNo, record };
      if (rule.mode === 'replace-group') {
        groups.add(key);
        added.push(entry);
      } else if (kind === 'enrich') {
        const earlier = enrich.get(key);
        enrich.set(key, earlier ? { ...entry, record: mergeRecord(earlier.record, record) } : entry);
      } else {
        added.push(entry);
      }
    }
  }
  const replaced = new Set(rule.mode === 'patch' ? added.map((a) => rule.key(a.record)) : []);
  const baseName = baseFile === null ? '' : path.basename(baseFile);
  for await (const line of baseFile === null ? noLines() : readJsonl(baseFile)) {
    if (!line.ok) {
      yield { ...line, file: baseName, overlay: false };
      continue;
    }
    const key = rule.key(line.record);
    if (key !== null && (groups.has(key) || replaced.has(key))) continue;
    const patch = key === null ? undefined : enrich.get(key);
    if (patch) {
      enrich.delete(key!);
      yield { lineNo: patch.lineNo, ok: true, record: mergeRecord(line.record, patch.record), file: patch.file, overlay: true };
      continue;
    }
    yield { ...line, file: baseName, overlay: false };
  }
  for (const a of added) {
    const key = rule.key(a.record)!;
    const patch = enrich.get(key);
    if (patch) enrich.delete(key);
    yield { lineNo: a.lineNo, ok: true, record: patch ? mergeRecord(a.record, patch.record) : a.record, file: a.file, overlay: true };
  }
  for (const [key, left] of enrich) warn(`${left.file}:${left.lineNo}: enrichment of ${key} dropped: the dataset no longer holds it`);
}

async function* noLines(): AsyncGenerator<JsonlLine> {}

/** `patch` over `base`; `_provenance` merged field by field. */
export function mergeRecord(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base, ...patch };
  const bp = base._provenance;
  const pp = patch._provenance;
  if (bp && typeof bp === 'object' && pp && typeof pp === 'object') out._provenance = { ...bp, ...pp };
  return out;
}
