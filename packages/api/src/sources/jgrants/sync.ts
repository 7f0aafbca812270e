// `cli sync jgrants`: list → details → map and match → publish.
// Bad records are set aside and the rest published (../quarantine.ts).
//
// Resumable: the ids listed and every detail fetched are kept in the work
// directory (sources/workdir.ts) as they arrive, so a sync killed at any
// point lists only the queries it had not finished and fetches only the
// details it had not stored. The mapping and matching run over everything
// fetched once the fetching is complete, against the catalogue being served.
import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import { ensureCatalog } from '../../ingest/ensure.ts';
import { CATALOG_PLAN } from '../../ingest/plan.ts';
import { Catalog } from '../../catalog/catalog.ts';
import { SourceHttpError } from '../http.ts';
import { SyncWorkDir } from '../workdir.ts';
import type { Progress } from '../progress.ts';
import {
  fetchFailed,
  publishSync,
  refuseDrift,
  resumeOrStart,
  sourceClient,
  type SyncLease,
  type SyncOutcome,
  type SyncReport,
  takeSyncLease,
} from '../sync-run.ts';
import { JgrantsClient } from './client.ts';
import { detailProblems, type JgrantsDetail } from './shape.ts';
import { truncate } from '../drift.ts';
import { QuarantineTally } from '../quarantine.ts';
import { mapDetail } from './map.ts';
import { matchProgramme } from './match.ts';
import { enrichment, newProgramme, type Fetched } from './overlay.ts';

export const SOURCE = 'jgrants';

export interface JgrantsSyncOptions {
  config: Config;
  keywords: readonly string[];
  acceptance: readonly string[];
  /** At most this many records (a trial run). */
  limit?: number;
  /** Forget a previous sync's progress. */
  fresh?: boolean;
  recordChanges: boolean;
  progress: Progress;
  /** Overrides for tests (backoff in ms). */
  backoffMs?: number;
}

interface Checkpoint {
  plan: string;
  startedAt: string;
  queriesDone: string[];
  ids: string[];
}

interface FetchedLine {
  id: string;
  fetched_at: string;
  raw: unknown;
}

export interface RecordError {
  jgrants_id: string;
  reasons: string[];
  raw: unknown;
}

export interface JgrantsReport extends SyncReport<RecordError> {
  source: 'jgrants';
  counts: { listed: number; fetched: number; matched: number; enriched: number; new: number; ambiguous: number; errors: number };
  matched: { jgrants_id: string; unified_id: string; title: string; enriched_fields: string[] }[];
  new: { jgrants_id: string; unified_id: string; title: string }[];
  ambiguous: { jgrants_id: string; title: string; candidates: { unified_id: string; primary_name: string; prefecture: string | null }[] }[];
}

const errorEntry = (reasons: string[], raw: unknown): RecordError => ({ jgrants_id: '', reasons, raw });

export async function syncJgrants(options: JgrantsSyncOptions): Promise<SyncOutcome<JgrantsReport>> {
  const { config, progress } = options;
  const work = new SyncWorkDir(config.dataDir, SOURCE);
  const report: JgrantsReport = {
    source: SOURCE,
    status: 'failed',
    started_at: new Date().toISOString(),
    finished_at: '',
    message: null,
    counts: { listed: 0, fetched: 0, matched: 0, enriched: 0, new: 0, ambiguous: 0, errors: 0 },
    matched: [],
    new: [],
    ambiguous: [],
    quarantine: null,
    errors: [],
    warnings: [],
    dataset_version: null,
    overlay: null,
    catalog_version: null,
    changes: null,
  };
  work.lock();
  let lease: SyncLease | null = null;
  try {
    lease = await takeSyncLease(config, SOURCE, progress);
    const client = new JgrantsClient(config.jgrantsApiBase, sourceClient(config.jgrantsRate, config, progress, options.backoffMs));
    const plan = JSON.stringify({ keywords: options.keywords, acceptance: options.acceptance, limit: options.limit ?? null });
    const checkpoint = resumeOrStart<Checkpoint>(work, plan, options.fresh, progress, () => ({ plan, startedAt: report.started_at, queriesDone: [], ids: [] }));

    try {
      // 1. The lists, one query at a time; each finished query is checkpointed.
      const queries = options.keywords.flatMap((keyword) => options.acceptance.map((acceptance) => ({ keyword, acceptance })));
      progress.phase('jgrants list', queries.length);
      for (const [i, q] of queries.entries()) {
        const key = `${q.keyword}\u0000${q.acceptance}`;
        if (!checkpoint.queriesDone.includes(key)) {
          const ids = await client.listIds(q);
          const known = new Set(checkpoint.ids);
          checkpoint.ids.push(...ids.filter((id) => !known.has(id)));
          checkpoint.queriesDone.push(key);
          work.writeCheckpoint(checkpoint);
        }
        progress.tick(i + 1);
      }
      const ids = options.limit ? checkpoint.ids.slice(0, options.limit) : checkpoint.ids;
      report.counts.listed = ids.length;

      // 2. The details not fetched yet; each is stored as it arrives.
      const have = new Set(work.readFetched<FetchedLine>().map((f) => f.id));
      const todo = ids.filter((id) => !have.has(id));
      progress.phase('jgrants details', ids.length);
      let done = ids.length - todo.length;
      for (const id of todo) {
        let raw: unknown;
        try {
          raw = await client.detail(id);
        } catch (err) {
          if (err instanceof SourceHttpError && err.status === 404) {
            report.warnings.push(`${id}: listed but its detail answers 404 (withdrawn?)`);
            progress.tick(++done);
            continue;
          }
          throw err;
        }
        // A record of another shape is stored too: it is set aside (or the whole refused) below, not fetched again.
        work.appendFetched({ id, fetched_at: new Date().toISOString(), raw } satisfies FetchedLine);
        progress.tick(++done);
      }
    } catch (err) {
      return fetchFailed(err, config.dataDir, report, 'jGrants', errorEntry);
    }

    // 3. Map and match everything fetched, against the served catalogue.
    const wanted = new Set(options.limit ? checkpoint.ids.slice(0, options.limit) : checkpoint.ids);
    const fetched = work.readFetched<FetchedLine>().filter((f) => wanted.has(f.id));
    report.counts.fetched = fetched.length;
    const { path: catalogFile } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir);
    const catalog = new Catalog(catalogFile);
    const lines: Record<string, unknown>[] = [];
    const tally = new QuarantineTally();
    try {
      progress.phase('jgrants match', fetched.length);
      for (const [i, f] of fetched.entries()) {
        progress.tick(i + 1);
        // Another shape, or an unusable value: set aside with the raw fragment (quarantine.ts).
        const problems = detailProblems(f.raw);
        const mapped = problems.length === 0 ? mapDetail(f.raw as JgrantsDetail) : null;
        tally.record(problems, !mapped?.ok);
        if (!mapped?.ok) {
          report.errors.push({ jgrants_id: f.id, reasons: mapped ? mapped.reasons : problems.map((p) => p.message), raw: truncate(f.raw) });
          continue;
        }
        for (const w of mapped.warnings) report.warnings.push(`${f.id}: ${w}`);
        const stamp: Fetched = { id: f.id, fetchedAt: f.fetched_at, checksum: createHash('sha256').update(JSON.stringify(f.raw)).digest('hex') };
        const outcome = matchProgramme(catalog.db, f.id, mapped.fields);
        if (outcome.kind === 'ambiguous') {
          report.ambiguous.push({ jgrants_id: f.id, title: mapped.fields.primary_name, candidates: outcome.candidates });
        } else if (outcome.kind === 'new') {
          lines.push(newProgramme(outcome.unified_id, mapped.fields, stamp));
          report.new.push({ jgrants_id: f.id, unified_id: outcome.unified_id, title: mapped.fields.primary_name });
        } else {
          const { record, changed } = enrichment(outcome.programme, mapped.fields, stamp);
          lines.push(record);
          report.matched.push({ jgrants_id: f.id, unified_id: outcome.programme.unified_id, title: mapped.fields.primary_name, enriched_fields: changed });
          if (changed.length > 0) report.counts.enriched++;
        }
      }
    } finally {
      catalog.close();
    }
    report.counts.matched = report.matched.length;
    report.counts.new = report.new.length;
    report.counts.ambiguous = report.ambiguous.length;
    report.quarantine = tally.summary(config.syncMaxBadShare);
    const drift = tally.drift(config.syncMaxBadShare, 'records');
    if (drift) return refuseDrift(config.dataDir, report, 'jGrants', drift);

    // 4. One dataset version, or nothing.
    return await publishSync({
      config,
      source: SOURCE,
      files: { programs: lines },
      report,
      recordChanges: options.recordChanges,
      work,
      progress,
      entry: errorEntry,
      lease,
    });
  } finally {
    await lease?.release();
    work.unlock();
  }
}
