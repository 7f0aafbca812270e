// Builds DATA_DIR/catalog.sqlite from the dataset directory.
//
// The catalogue is built into a temporary file next to the target and renamed
// into place only when every loader finished: a crash or a fatal error never
// leaves a half-built catalogue behind, and a serving process keeps reading
// the previous file until the rename.
//
// Each record set has a Loader (ingest/loaders/*) that owns its tables: its
// DDL, how a line is validated, how a valid record is written. Which loaders
// make the served catalogue is the caller's plan (src/ingest/plan.ts: these
// record sets, then the entity graph built over them). Lines that fail
// validation are rejected and reported with file and line number; with
// `strict` any rejection fails the whole build.
//
// The active overlays of DATA_DIR (ingest/overlays.ts: what `cli sync`
// fetched from jGrants and e-Gov) are merged into their dataset files; an
// overlay record that fails validation always fails the build (the sync
// validated it before publishing, so a rejection here is never "just data").
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync, readFileSync, renameSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { datasetFile, readJsonl, type JsonlLine } from './jsonl.ts';
import type { Loader, LoadContext } from './loaders/types.ts';
import { CATALOG_SCHEMA_VERSION } from './schema-version.ts';
import { catalogFingerprint } from './fingerprint.ts';
import { utcSeconds } from '../lib/time.ts';
import { activeOverlayDirs, mergeOverlays, overlayFiles, OVERLAY_RULES, type MergedLine } from './overlays.ts';
import { datasetVersionId, overlayManifest } from './dataset-version.ts';

export interface Rejection {
  file: string;
  lineNo: number;
  reason: string;
  /** The line came from a source overlay (ingest/overlays.ts). */
  overlay?: boolean;
}

export interface IngestReport {
  catalogPath: string;
  counts: Record<string, number>;
  rejected: Rejection[];
  warnings: string[];
  durationMs: number;
}

/** What a catalogue is built from. */
export interface CatalogPlan {
  /** In order; a loader may read what earlier ones wrote. */
  loaders: readonly Loader[];
  /** Source files outside catalog/ that shape the file (the loaders' own); they join its fingerprint. */
  sourceFiles: readonly string[];
}

export interface IngestOptions {
  plan: CatalogPlan;
  datasetDir: string;
  dataDir: string;
  strict?: boolean;
  /** Overlay version directories merged into the dataset (default: DATA_DIR's active ones, overlays.ts). */
  overlayDirs?: readonly string[];
  /** Build into this file instead of DATA_DIR/catalog.sqlite (a sync validates before it publishes). */
  target?: string;
  /** Receives progress lines; the CLI prints them to stderr. */
  progress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { type: 'file-start'; loader: string; file: string | null }
  | { type: 'lines'; loader: string; lines: number }
  | { type: 'file-done'; loader: string; loaded: number; rejected: number }
  | { type: 'finalize'; step: string };

export class IngestError extends Error {
  report: IngestReport;
  constructor(message: string, report: IngestReport) {
    super(message);
    this.report = report;
  }
}

export function catalogPath(dataDir: string): string {
  return path.join(dataDir, 'catalog.sqlite');
}

export async function ingest(options: IngestOptions): Promise<IngestReport> {
  const started = Date.now();
  mkdirSync(options.dataDir, { recursive: true });
  const target = options.target ?? catalogPath(options.dataDir);
  const overlayDirs = options.overlayDirs ?? activeOverlayDirs(options.dataDir);
  const temp = `${target}.building-${process.pid}-${Date.now()}`;
  const report: IngestReport = { catalogPath: target, counts: {}, rejected: [], warnings: [], durationMs: 0 };
  const progress = options.progress ?? (() => {});
  if (!existsSync(options.datasetDir)) {
    throw new IngestError(`dataset directory not found: ${options.datasetDir}`, report);
  }

  const db = new DatabaseSync(temp);
  let ok = false;
  try {
    // The file is private until the rename; durability of individual
    // transactions does not matter, only the final state.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF;');
    db.exec(`CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`);
    for (const loader of options.plan.loaders) db.exec(loader.ddl);

    const ctx: LoadContext = {
      db,
      datasetDir: options.datasetDir,
      warn: (message) => report.warnings.push(message),
      shared: new Map(),
    };
    for (const loader of options.plan.loaders) {
      await runLoader(loader, ctx, report, progress, overlayDirs);
    }
    for (const loader of options.plan.loaders) {
      if (loader.finalize) {
        progress({ type: 'finalize', step: loader.name });
        loader.finalize(ctx);
      }
    }

    const setMeta = db.prepare('INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)');
    setMeta.run('schema_version', String(CATALOG_SCHEMA_VERSION));
    setMeta.run('fingerprint', catalogFingerprint(options.datasetDir, options.plan.sourceFiles, overlayDirs));
    setMeta.run('overlays', JSON.stringify(overlayDirs.map((d) => path.relative(options.dataDir, d))));
    // The content address of those overlays: the dataset version this file serves (dataset-version.ts).
    setMeta.run('dataset_version', datasetVersionId(overlayManifest(overlayDirs)));
    setMeta.run('last_ingested_at', utcSeconds());
    setMeta.run('counts', JSON.stringify(report.counts));
    setMeta.run('rejected_count', String(report.rejected.length));

    const overlayRejected = report.rejected.filter((r) => r.overlay).length;
    if (overlayRejected > 0) {
      throw new IngestError(`${overlayRejected} overlay record(s) rejected; catalogue not written`, report);
    }
    if (options.strict && report.rejected.length > 0) {
      throw new IngestError(`${report.rejected.length} record(s) rejected; catalogue not written (strict mode)`, report);
    }
    progress({ type: 'finalize', step: 'optimize' });
    db.exec('ANALYZE; PRAGMA optimize;');
    db.exec("INSERT INTO programs_fts(programs_fts) VALUES ('optimize');");
    db.close();
    renameSync(temp, target);
    ok = true;
  } finally {
    if (!ok) {
      try {
        db.close();
      } catch {
        /* already closed */
      }
      rmSync(temp, { force: true });
    }
  }
  report.durationMs = Date.now() - started;
  return report;
}

async function runLoader(
  loader: Loader,
  ctx: LoadContext,
  report: IngestReport,
  progress: (event: ProgressEvent) => void,
  overlayDirs: readonly string[],
): Promise<void> {
  if (loader.build) {
    progress({ type: 'file-start', loader: loader.name, file: null });
    ctx.db.exec('BEGIN');
    try {
      report.counts[loader.name] = await loader.build(ctx);
      ctx.db.exec('COMMIT');
    } catch (err) {
      ctx.db.exec('ROLLBACK');
      throw err;
    }
    progress({ type: 'file-done', loader: loader.name, loaded: report.counts[loader.name], rejected: 0 });
    return;
  }
  const file = datasetFile(ctx.datasetDir, loader.file);
  progress({ type: 'file-start', loader: loader.name, file });
  const overlays = OVERLAY_RULES[loader.file] ? overlayFiles(overlayDirs, loader.file) : [];
  // A file only overlays hold (the e-Gov sync's law revisions) loads from them alone.
  if (!file && overlays.length === 0) {
    if (loader.required) {
      throw new IngestError(`required dataset file missing: ${loader.file}.jsonl(.gz) in ${ctx.datasetDir}`, report);
    }
    report.counts[loader.name] = 0;
    progress({ type: 'file-done', loader: loader.name, loaded: 0, rejected: 0 });
    return;
  }
  let loaded = 0;
  let rejected = 0;
  let lines = 0;
  const writer = await loader.prepare(ctx);
  const source: AsyncIterable<MergedLine> =
    overlays.length > 0 ? mergeOverlays(file, overlays, OVERLAY_RULES[loader.file], ctx.warn) : tagged(readJsonl(file!), path.basename(file!));
  ctx.db.exec('BEGIN');
  try {
    for await (const line of source) {
      lines++;
      if (lines % 2000 === 0) progress({ type: 'lines', loader: loader.name, lines });
      const reject = (reason: string) => {
        rejected++;
        report.rejected.push({ file: line.file, lineNo: line.lineNo, reason, ...(line.overlay ? { overlay: true } : {}) });
      };
      if (!line.ok) {
        reject(line.error);
        continue;
      }
      const problem = loader.validate(line.record);
      if (problem) {
        reject(problem);
        continue;
      }
      const writeProblem = writer(line.record);
      if (writeProblem) {
        reject(writeProblem);
        continue;
      }
      loaded++;
    }
    if (loader.reviewed) loaded += loadReviewed(loader, writer, loader.reviewed, report, ctx);
    ctx.db.exec('COMMIT');
  } catch (err) {
    ctx.db.exec('ROLLBACK');
    throw err;
  }
  report.counts[loader.name] = loaded;
  progress({ type: 'file-done', loader: loader.name, loaded, rejected });
}

/**
 * The reviewed additions of a loader (TableSpec.reviewed): every line must
 * parse, validate, carry `review: {reason, sources}` and be written; any
 * failure stops the build, naming the file and line. An addition that rests
 * on programmes of the catalogue (`review.programmes`, unified ids) is added
 * only to a catalogue holding one of them: a dataset without the evidence
 * (a test fixture, another deployment's data) does not get it.
 */
function loadReviewed(
  loader: Loader,
  writer: (record: Record<string, unknown>) => string | null,
  file: string,
  report: IngestReport,
  ctx: LoadContext,
): number {
  const held = ctx.db.prepare('SELECT 1 FROM programs WHERE unified_id = ?');
  let loaded = 0;
  for (const [i, text] of readFileSync(file, 'utf8').split('\n').entries()) {
    const line = text.trim();
    if (line === '' || line.startsWith('//')) continue;
    const where = `${path.basename(file)}:${i + 1}`;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new IngestError(`${where}: not JSON`, report);
    }
    const review = record.review as { reason?: unknown; sources?: unknown; programmes?: unknown } | undefined;
    if (Array.isArray(review?.programmes) && !review.programmes.some((id) => held.get(String(id)) !== undefined)) continue;
    const problem =
      typeof review?.reason !== 'string' || !Array.isArray(review.sources) || review.sources.length === 0
        ? 'a reviewed record needs review {reason, sources}'
        : (loader.validate(record) ?? writer(record));
    if (problem) throw new IngestError(`${where}: ${problem}`, report);
    loaded++;
  }
  return loaded;
}

async function* tagged(lines: AsyncIterable<JsonlLine>, file: string): AsyncGenerator<MergedLine> {
  for await (const line of lines) yield { ...line, file, overlay: false };
}
