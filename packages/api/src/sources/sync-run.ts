// The steps every source's sync shares (jgrants/sync.ts, egov/sync.ts): the
// cluster-wide lease (one sync of a source at a time, on any machine), the
// polite HTTP client, the resumable checkpoint, the way a failed fetch ends
// the run, publishing the overlay as a dataset version, and the report written
// to DATA_DIR/sources/<source>/last-report.json whatever the outcome.
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Config } from '../config.ts';
import { sourcesDir } from '../ingest/overlays.ts';
import { IngestError } from '../ingest/ingest.ts';
import { PoliteClient, SourceHttpError } from './http.ts';
import type { SyncWorkDir } from './workdir.ts';
import type { Progress } from './progress.ts';
import { publishOverlay, type PublishInput } from './publish.ts';
import { ShapeDrift } from './drift.ts';
import { SyncLocked } from './workdir.ts';
import { openStateStore, type StateStore } from '../state/index.ts';
import { processName } from '../versions/publish.ts';
import { pullHead } from '../versions/pull.ts';

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
  /** The dataset version published (its content address, `cli versions`). */
  dataset_version: string | null;
  /** This source's overlay directory in that version (DATA_DIR/sources/<source>/versions/<overlay>). */
  overlay: string | null;
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
  input: Omit<PublishInput, 'report' | 'log'> & { report: R; work: SyncWorkDir; progress: Progress; entry: ErrorEntry<E>; lease: SyncLease },
): Promise<SyncOutcome<R>> {
  const { report, work, progress, entry, lease, ...publish } = input;
  try {
    await lease.check();
    const published = await publishOverlay({
      ...publish,
      // The report stored with the version: this run's, as it ends when the version is published.
      report: (o) => {
        Object.assign(report, { dataset_version: o.versionId, catalog_version: o.catalogVersion, changes: o.changes });
        report.counts.errors = report.errors.length;
        return { ...report, status: 'published', finished_at: new Date().toISOString() };
      },
      log: (l) => progress.line(l),
    });
    report.overlay = published.overlay;
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

/** How long a sync's lease lasts unless renewed (it is renewed every third of it while the sync runs). */
export const SYNC_LEASE_SECONDS = 120;

/** A source's cluster-wide lease, held for the whole run. */
export interface SyncLease {
  store: StateStore;
  /** Renews it now; throws SyncLocked when another process took it meanwhile (this one stalled past its expiry). */
  check(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes the lease `sync:<source>` in the state store — with DATABASE_URL one
 * per cluster, so two schedulers on two machines never both fetch — or throws
 * SyncLocked naming the holder. With DATABASE_URL, DATA_DIR is then brought to
 * the current dataset version (versions/pull.ts), so that the sync matches
 * against, and carries forward from, what every server serves.
 */
export async function takeSyncLease(config: Pick<Config, 'dataDir' | 'datasetDir' | 'databaseUrl'>, source: string, progress: Progress): Promise<SyncLease> {
  const store = await openStateStore(config);
  const name = `sync:${source}`;
  const holder = processName();
  const until = () => new Date(Date.now() + SYNC_LEASE_SECONDS * 1000).toISOString();
  const renew = () => store.leases.acquire(name, holder, new Date().toISOString(), until());
  let timer: NodeJS.Timeout | null = null;
  try {
    if (!(await renew())) {
      const other = await store.leases.holder(name, new Date().toISOString());
      // A sync of this machine killed without releasing (kill -9) leaves its lease behind: take it over.
      if (other && deadHereAndNow(other)) {
        await store.leases.release(name, other);
        if (!(await renew())) throw new SyncLocked(`another sync of ${source} is running`);
      } else throw new SyncLocked(`another sync of ${source} is running (${other ?? 'a process whose lease has just ended'})`);
    }
    timer = setInterval(() => void renew().catch(() => undefined), (SYNC_LEASE_SECONDS * 1000) / 3);
    timer.unref();
    if (config.databaseUrl) {
      const pulled = await pullHead(config, store, { wait: true, progress: (l) => progress.line(l) });
      if (pulled.kind === 'pulled') progress.line(`this machine now has the current dataset version ${pulled.versionId}`);
    }
  } catch (err) {
    if (timer) clearInterval(timer);
    await store.leases.release(name, holder).catch(() => undefined);
    await store.close();
    throw err;
  }
  return {
    store,
    async check() {
      if (!(await renew())) throw new SyncLocked(`the lease of the ${source} sync passed to another process; nothing published`);
    },
    async release() {
      if (timer) clearInterval(timer);
      await store.leases.release(name, holder).catch(() => undefined);
      await store.close();
    },
  };
}

/** True when `holder` (host:pid) names a process of this machine that is gone. */
function deadHereAndNow(holder: string): boolean {
  const at = holder.lastIndexOf(':');
  const pid = Number(holder.slice(at + 1));
  if (holder.slice(0, at) !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
