// The steps every source's sync shares (jgrants/sync.ts, egov/sync.ts): the
// polite HTTP client, the resumable checkpoint, the way a failed fetch ends the
// run, publishing the overlay as a dataset version, and the report written to
// DATA_DIR/sources/<source>/last-report.json whatever the outcome.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { sourcesDir } from '../ingest/overlays.ts';
import { IngestError } from '../ingest/ingest.ts';
import { PoliteClient, SourceHttpError } from './http.ts';
import type { SyncWorkDir } from './workdir.ts';
import type { Progress } from './progress.ts';
import { publishOverlay, type PublishInput } from './publish.ts';
import { ShapeDrift } from './drift.ts';

/** Exit codes of `cli sync`: 2 (usage) is the CLI's own. */
export const EXIT = { ok: 0, failed: 1, drift: 3 } as const;

/** What every sync's report holds; each source adds its counts and lists. */
export interface SyncReport<E> {
  source: string;
  status: 'published' | 'drift' | 'failed';
  started_at: string;
  finished_at: string;
  message: string | null;
  counts: { errors: number };
  /** Records set aside (quarantined): they are in `errors` with their reasons and raw fragment. */
  quarantine: { records: number; set_aside: number; share: number; max_share: number } | null;
  errors: E[];
  warnings: string[];
  dataset_version: string | null;
  catalog_version: string | null;
  changes: string | null;
}

/** A per-record error entry of one source, from its reasons and the raw fragment. */
export type ErrorEntry<E> = (reasons: string[], raw: unknown) => E;

export interface SyncOutcome<R> {
  exitCode: number;
  report: R;
}

/** Ends the run: the report gets its status and end time and is written beside the source's versions. */
export function finishSync<R extends SyncReport<unknown>>(
  dataDir: string,
  report: R,
  status: R['status'],
  message: string | null,
  exitCode: number,
): SyncOutcome<R> {
  report.status = status;
  report.message = message;
  report.finished_at = new Date().toISOString();
  report.counts.errors = report.errors.length;
  writeFileSync(path.join(sourcesDir(dataDir), report.source, 'last-report.json'), JSON.stringify(report, null, 2));
  return { exitCode, report };
}

/** The source's HTTP client at its configured rate; each retry is a progress line. */
export function sourceClient(rate: number, config: Pick<Config, 'syncMaxRetries'>, progress: Progress, backoffMs?: number): PoliteClient {
  return new PoliteClient({
    rate,
    maxRetries: config.syncMaxRetries,
    backoffMs,
    onRetry: (r) => progress.line(`retry ${r.attempt} in ${r.waitMs} ms: ${r.reason} (${r.url})`),
  });
}

/**
 * The checkpoint of an interrupted run of the same plan, or a new one made by
 * `start` after the work directory is cleared (another plan, or `--fresh`).
 */
export function resumeOrStart<C extends { plan: string; startedAt: string }>(
  work: SyncWorkDir,
  plan: string,
  fresh: boolean | undefined,
  progress: Progress,
  start: () => C,
): C {
  const kept = fresh ? null : work.readCheckpoint<C>();
  if (kept && kept.plan === plan) {
    progress.line(`resuming the sync started ${kept.startedAt}`);
    return kept;
  }
  work.clear();
  const checkpoint = start();
  work.writeCheckpoint(checkpoint);
  return checkpoint;
}

/**
 * Refuses to publish when the source drifted as a whole (quarantine.ts): the
 * report says which rule and lists the set-aside records; nothing is written
 * and the work directory is kept (a rerun after the code is adapted fetches nothing again).
 */
export function refuseDrift<R extends SyncReport<unknown>>(dataDir: string, report: R, sourceName: string, reason: string): SyncOutcome<R> {
  return finishSync(dataDir, report, 'drift', `the ${sourceName} answers drifted as a whole; nothing written. ${reason}`, EXIT.drift);
}

/**
 * How a fetch that threw ends the run: drift writes nothing (exit 3), an HTTP
 * failure keeps the work directory for a rerun (exit 1); anything else is a bug and rethrown.
 */
export function fetchFailed<E, R extends SyncReport<E>>(err: unknown, dataDir: string, report: R, sourceName: string, entry: ErrorEntry<E>): SyncOutcome<R> {
  if (err instanceof ShapeDrift) {
    report.errors.push(entry([err.message], err.fragment));
    return finishSync(dataDir, report, 'drift', `the ${sourceName} answer no longer has the documented shape; nothing written. ${err.message}`, EXIT.drift);
  }
  if (err instanceof SourceHttpError) return finishSync(dataDir, report, 'failed', `${err.message}; rerun to resume`, EXIT.failed);
  throw err;
}

/** Publishes the overlay as a dataset version (or nothing, when the new catalogue does not validate) and ends the run. */
export async function publishSync<E, R extends SyncReport<E>>(
  input: Omit<PublishInput, 'report' | 'log'> & { report: R; work: SyncWorkDir; progress: Progress; entry: ErrorEntry<E> },
): Promise<SyncOutcome<R>> {
  const { report, work, progress, entry, ...publish } = input;
  report.status = 'published';
  try {
    const published = await publishOverlay({ ...publish, report, log: (l) => progress.line(l) });
    report.dataset_version = published.version;
    report.catalog_version = published.catalogVersion;
    report.changes = published.changes;
  } catch (err) {
    if (err instanceof IngestError) {
      for (const r of err.report.rejected) report.errors.push(entry([`${r.file}:${r.lineNo}: ${r.reason}`], null));
      return finishSync(input.config.dataDir, report, 'failed', `the new catalogue did not validate: ${err.message}`, EXIT.failed);
    }
    throw err;
  }
  work.clear();
  return finishSync(input.config.dataDir, report, 'published', null, EXIT.ok);
}
