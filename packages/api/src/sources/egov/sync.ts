// `cli sync egov`: refresh the laws programmes reference (program_law_refs of
// the served catalogue, or --law ids) from the e-Gov 法令API v2: metadata of
// the revision in force, its article text, and the history of revisions.
//
// Revisions are kept, never overwritten: every revision ever seen (with its
// promulgation and enforcement dates and status) is carried from one
// version of the source to the next in law_revisions.jsonl, so a revision
// announced but not in force yet, and the ones it replaced, stay on record.
// Resumable and drift-refusing like the jGrants sync (../jgrants/sync.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { ensureCatalog } from '../../ingest/ensure.ts';
import { CATALOG_PLAN } from '../../ingest/plan.ts';
import { Catalog } from '../../catalog/catalog.ts';
import { activeOverlayDirs } from '../../ingest/overlays.ts';
import { SourceHttpError } from '../http.ts';
import { SyncWorkDir } from '../workdir.ts';
import type { Progress } from '../progress.ts';
import { fetchFailed, publishSync, resumeOrStart, sourceClient, type SyncOutcome, type SyncReport } from '../sync-run.ts';
import { truncate } from '../drift.ts';
import { lawDataOf, revisionsOf, type RevisionInfo } from './shape.ts';
import { articlesOf } from './articles.ts';

export const SOURCE = 'egov';

export interface EgovSyncOptions {
  config: Config;
  /** e-Gov law ids to refresh (default: every law a programme references). */
  lawIds?: readonly string[];
  limit?: number;
  fresh?: boolean;
  recordChanges: boolean;
  progress: Progress;
  backoffMs?: number;
}

interface Target {
  law_slug: string;
  egov_law_id: string;
}

interface FetchedLaw extends Target {
  fetched_at: string;
  revisions: unknown;
  law_data: unknown;
}

export interface StoredRevision extends RevisionInfo {
  law_slug: string;
  egov_law_id: string;
  first_seen_at: string;
  last_seen_at: string;
}

type LawError = { law_slug: string; egov_law_id: string; reasons: string[]; raw: unknown };

export interface EgovReport extends SyncReport<LawError> {
  source: 'egov';
  counts: { laws: number; fetched: number; updated: number; articles: number; revisions: number; new_revisions: number; errors: number };
  updated: { law_slug: string; egov_law_id: string; title: string; in_force_since: string | null; articles: number }[];
}

const errorEntry = (reasons: string[], raw: unknown): LawError => ({ law_slug: '', egov_law_id: '', reasons, raw });
const EGOV_LAW_PAGE = 'https://laws.e-gov.go.jp/law/';

/** YYYY-MM-DD of an e-Gov date (they come as dates or date-times). */
const day = (v: string | null | undefined): string | null => (v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);

/** The laws to refresh: their slug in the catalogue and their e-Gov id. */
function targets(catalog: Catalog, lawIds: readonly string[] | undefined, warn: (m: string) => void): Target[] {
  if (lawIds && lawIds.length > 0) {
    return lawIds.flatMap((id) => {
      const row = catalog.db.get<{ law_slug: string }>('SELECT law_slug FROM laws WHERE egov_law_id = ?', id);
      if (!row) warn(`${id}: no law of the catalogue has this e-Gov id (laws are added by the dataset, not by this sync)`);
      return row ? [{ law_slug: row.law_slug, egov_law_id: id }] : [];
    });
  }
  return catalog.db.all<Target>(
    `SELECT DISTINCT l.law_slug, l.egov_law_id FROM program_law_refs r JOIN laws l ON l.law_slug = r.law_slug
     WHERE l.egov_law_id IS NOT NULL AND l.egov_law_id <> '' ORDER BY l.law_slug`,
  );
}

/** The revisions the source's current version holds (carried forward, see the header). */
function previousRevisions(dataDir: string): StoredRevision[] {
  const dir = activeOverlayDirs(dataDir).find((d) => path.basename(path.dirname(path.dirname(d))) === SOURCE);
  const file = dir && path.join(dir, 'law_revisions.jsonl');
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StoredRevision);
}

export async function syncEgov(options: EgovSyncOptions): Promise<SyncOutcome<EgovReport>> {
  const { config, progress } = options;
  const work = new SyncWorkDir(config.dataDir, SOURCE);
  const report: EgovReport = {
    source: SOURCE,
    status: 'failed',
    started_at: new Date().toISOString(),
    finished_at: '',
    message: null,
    counts: { laws: 0, fetched: 0, updated: 0, articles: 0, revisions: 0, new_revisions: 0, errors: 0 },
    updated: [],
    errors: [],
    warnings: [],
    dataset_version: null,
    catalog_version: null,
    changes: null,
  };
  work.lock();
  try {
    const { path: catalogFile } = await ensureCatalog(CATALOG_PLAN, config.dataDir, config.datasetDir);
    const http = sourceClient(config.egovRate, config, progress, options.backoffMs);
    const base = config.egovApiBase.replace(/\/+$/, '');
    const plan = JSON.stringify({ lawIds: options.lawIds ?? null, limit: options.limit ?? null });
    const checkpoint = resumeOrStart(work, plan, options.fresh, progress, () => {
      const catalog = new Catalog(catalogFile);
      try {
        const all = targets(catalog, options.lawIds, (m) => report.warnings.push(m));
        return { plan, startedAt: report.started_at, targets: options.limit ? all.slice(0, options.limit) : all };
      } finally {
        catalog.close();
      }
    });
    report.counts.laws = checkpoint.targets.length;

    try {
      const have = new Set(work.readFetched<FetchedLaw>().map((f) => f.egov_law_id));
      progress.phase('e-Gov laws', checkpoint.targets.length);
      let done = 0;
      for (const t of checkpoint.targets) {
        if (!have.has(t.egov_law_id)) {
          const id = encodeURIComponent(t.egov_law_id);
          let revisions: unknown;
          let lawData: unknown;
          try {
            revisions = await http.getJson(`${base}/law_revisions/${id}`);
            revisionsOf(revisions);
            lawData = await http.getJson(`${base}/law_data/${id}?law_full_text_format=json`);
            lawDataOf(lawData);
          } catch (err) {
            if (err instanceof SourceHttpError && err.status === 404) {
              report.errors.push({ ...t, reasons: ['e-Gov answers 404 for this law id'], raw: null });
              progress.tick(++done);
              continue;
            }
            throw err;
          }
          work.appendFetched({ ...t, fetched_at: new Date().toISOString(), revisions, law_data: lawData } satisfies FetchedLaw);
        }
        progress.tick(++done);
      }
    } catch (err) {
      return fetchFailed(err, config.dataDir, report, 'e-Gov', errorEntry);
    }

    // Map: law metadata (enrich), article text (replaces the law's articles), revisions (accumulated).
    const laws: Record<string, unknown>[] = [];
    const articles: Record<string, unknown>[] = [];
    const revisions = new Map(previousRevisions(config.dataDir).map((r) => [r.law_revision_id, r]));
    const before = revisions.size;
    const wanted = new Set(checkpoint.targets.map((t) => t.egov_law_id));
    const fetched = work.readFetched<FetchedLaw>().filter((f) => wanted.has(f.egov_law_id));
    report.counts.fetched = fetched.length;
    for (const f of fetched) {
      const history = revisionsOf(f.revisions);
      const data = lawDataOf(f.law_data);
      for (const r of history.revisions) {
        const kept = revisions.get(r.law_revision_id);
        revisions.set(r.law_revision_id, {
          ...r,
          law_slug: f.law_slug,
          egov_law_id: f.egov_law_id,
          first_seen_at: kept?.first_seen_at ?? f.fetched_at,
          last_seen_at: f.fetched_at,
        });
      }
      const rows = articlesOf(data.fullText);
      const title = data.revision.law_title.trim();
      if (title === '') {
        report.errors.push({ law_slug: f.law_slug, egov_law_id: f.egov_law_id, reasons: ['revision_info.law_title is empty'], raw: truncate(data.revision) });
        continue;
      }
      const inForce = day(data.revision.amendment_enforcement_date);
      const repealed = data.revision.repeal_status !== null && !['', 'None'].includes(data.revision.repeal_status);
      laws.push({
        _overlay: 'enrich',
        law_slug: f.law_slug,
        title,
        law_number: data.lawInfo.law_num,
        egov_law_id: f.egov_law_id,
        last_amended_on: inForce,
        status: repealed ? 'repealed' : 'active',
        source_url: `${EGOV_LAW_PAGE}${encodeURIComponent(f.egov_law_id)}`,
        source_fetched_at: f.fetched_at,
        articles_included: rows.length > 0,
        articles_on_page: rows.length,
        articles_truncated: false,
      });
      for (const a of rows) articles.push({ _overlay: 'new', law_slug: f.law_slug, law_id: null, egov_law_id: f.egov_law_id, ...a });
      report.updated.push({ law_slug: f.law_slug, egov_law_id: f.egov_law_id, title, in_force_since: inForce, articles: rows.length });
    }
    report.counts.updated = report.updated.length;
    report.counts.articles = articles.length;
    report.counts.revisions = revisions.size;
    report.counts.new_revisions = revisions.size - before;

    return await publishSync({
      config,
      source: SOURCE,
      files: { laws, law_articles: articles, law_revisions: [...revisions.values()] as unknown as Record<string, unknown>[] },
      report,
      recordChanges: options.recordChanges,
      work,
      progress,
      entry: errorEntry,
    });
  } finally {
    work.unlock();
  }
}
