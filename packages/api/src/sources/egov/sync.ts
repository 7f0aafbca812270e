// `cli sync egov`: refresh the laws programmes reference (program_law_refs of
// the served catalogue, or --law ids) from the e-Gov 法令API v2: metadata of
// the revision in force, its article text, and the history of revisions.
//
// Revisions are kept, never overwritten: every revision ever seen (with its
// promulgation and enforcement dates and status) is carried from one
// version of the source to the next in law_revisions.jsonl, so a revision
// announced but not in force yet, and the ones it replaced, stay on record.
// So is the article text of each revision fetched (law_revision_articles.jsonl):
// the text in force, and that of the newest revisions listed
// (REVISION_TEXTS_PER_LAW, fetched once each), which is what
// GET /v1/laws/{id}/revisions and `effective_on` serve.
// Resumable, quarantining and drift-refusing like the jGrants sync (../jgrants/sync.ts).
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
import { truncate } from '../drift.ts';
import { lawDataEnvelope, lawDataOf, revisionsEnvelope, revisionsOf, type RevisionInfo } from './shape.ts';
import { articlesOf, type ArticleRow } from './articles.ts';
import { QuarantineTally, type RecordProblem } from '../quarantine.ts';

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
  /** law_data answers of other revisions, by law_revision_id (absent in lines written before texts were kept). */
  revision_data?: Record<string, unknown>;
}

/** Revisions whose text a sync fetches per law besides the one in force: the newest listed (announced ones first), each once. */
export const REVISION_TEXTS_PER_LAW = 3;

/** One article of one revision, as law_revision_articles.jsonl keeps it. */
type RevisionArticle = ArticleRow & { law_revision_id: string; law_slug: string; egov_law_id: string };

export interface StoredRevision extends RevisionInfo {
  law_slug: string;
  egov_law_id: string;
  first_seen_at: string;
  last_seen_at: string;
}

type LawError = { law_slug: string; egov_law_id: string; reasons: string[]; raw: unknown };

export interface EgovReport extends SyncReport<LawError> {
  source: 'egov';
  counts: {
    laws: number;
    fetched: number;
    updated: number;
    articles: number;
    revisions: number;
    new_revisions: number;
    revision_texts: number;
    errors: number;
  };
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

/** The lines of one of the source's current overlay files (carried forward, see the header), without their `_overlay`. */
function previousLines<T>(dataDir: string, file: string): T[] {
  const dir = activeOverlayDirs(dataDir).find((d) => path.basename(path.dirname(path.dirname(d))) === SOURCE);
  const full = dir && path.join(dir, `${file}.jsonl`);
  if (!full || !existsSync(full)) return [];
  return readFileSync(full, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { _overlay: _kind, ...record } = JSON.parse(l) as Record<string, unknown>;
      return record as T;
    });
}

/** The revisions of a law whose text to fetch: the newest listed (by enforcement date), less the one law_data answers and those already kept. */
function revisionsToFetch(revisions: readonly RevisionInfo[], inForce: string, kept: ReadonlySet<string>): string[] {
  return [...revisions]
    .sort((a, b) => (b.amendment_enforcement_date ?? '').localeCompare(a.amendment_enforcement_date ?? ''))
    .slice(0, REVISION_TEXTS_PER_LAW)
    .map((r) => r.law_revision_id)
    .filter((id) => id !== inForce && !kept.has(id));
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
    counts: { laws: 0, fetched: 0, updated: 0, articles: 0, revisions: 0, new_revisions: 0, revision_texts: 0, errors: 0 },
    updated: [],
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

    // Texts of revisions kept by the current version are not fetched again.
    const keptTexts = new Set(previousLines<RevisionArticle>(config.dataDir, 'law_revision_articles').map((a) => a.law_revision_id));
    try {
      const have = new Set(work.readFetched<FetchedLaw>().map((f) => f.egov_law_id));
      progress.phase('e-Gov laws', checkpoint.targets.length);
      let done = 0;
      for (const t of checkpoint.targets) {
        if (!have.has(t.egov_law_id)) {
          const id = encodeURIComponent(t.egov_law_id);
          let revisions: unknown;
          let lawData: unknown;
          const revisionData: Record<string, unknown> = {};
          try {
            // An envelope that is not the documented one stops the sync (ShapeDrift); field problems are looked at below.
            revisions = await http.getJson(`${base}/law_revisions/${id}`);
            const revisionProblems = revisionsEnvelope(revisions);
            lawData = await http.getJson(`${base}/law_data/${id}?law_full_text_format=json`);
            const dataProblems = lawDataEnvelope(lawData);
            if (revisionProblems.length === 0 && dataProblems.length === 0) {
              const inForce = lawDataOf(lawData).revision.law_revision_id;
              for (const rid of revisionsToFetch(revisionsOf(revisions).revisions, inForce, keptTexts)) {
                const answer = await http.getJson(`${base}/law_data/${encodeURIComponent(rid)}?law_full_text_format=json`);
                lawDataEnvelope(answer);
                revisionData[rid] = answer;
              }
            }
          } catch (err) {
            if (err instanceof SourceHttpError && err.status === 404) {
              report.errors.push({ ...t, reasons: ['e-Gov answers 404 for this law id'], raw: null });
              progress.tick(++done);
              continue;
            }
            throw err;
          }
          work.appendFetched({ ...t, fetched_at: new Date().toISOString(), revisions, law_data: lawData, revision_data: revisionData } satisfies FetchedLaw);
        }
        progress.tick(++done);
      }
    } catch (err) {
      return fetchFailed(err, config.dataDir, report, 'e-Gov', errorEntry);
    }

    // Map: law metadata (enrich), article text (replaces the law's articles),
    // revisions and their text (accumulated). A law whose answers have fields
    // of another shape, or an empty title, is set aside (../quarantine.ts).
    const laws: Record<string, unknown>[] = [];
    const articles: Record<string, unknown>[] = [];
    const revisions = new Map(previousLines<StoredRevision>(config.dataDir, 'law_revisions').map((r) => [r.law_revision_id, r]));
    const texts = new Map<string, RevisionArticle[]>();
    for (const a of previousLines<RevisionArticle>(config.dataDir, 'law_revision_articles')) {
      texts.set(a.law_revision_id, [...(texts.get(a.law_revision_id) ?? []), a]);
    }
    const before = revisions.size;
    const wanted = new Set(checkpoint.targets.map((t) => t.egov_law_id));
    const fetched = work.readFetched<FetchedLaw>().filter((f) => wanted.has(f.egov_law_id));
    report.counts.fetched = fetched.length;
    const tally = new QuarantineTally();
    for (const f of fetched) {
      const problems: RecordProblem[] = [
        ...revisionsEnvelope(f.revisions),
        ...lawDataEnvelope(f.law_data),
        ...Object.values(f.revision_data ?? {}).flatMap((answer) => lawDataEnvelope(answer)),
      ];
      const title = problems.length === 0 ? lawDataOf(f.law_data).revision.law_title.trim() : '';
      const reasons = problems.length > 0 ? problems.map((p) => p.message) : title === '' ? ['revision_info.law_title is empty'] : [];
      tally.record(problems, reasons.length > 0);
      if (reasons.length > 0) {
        report.errors.push({
          law_slug: f.law_slug,
          egov_law_id: f.egov_law_id,
          reasons,
          raw: truncate(problems.length > 0 ? f : lawDataOf(f.law_data).revision),
        });
        continue;
      }
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
      const keep = (revisionId: string, list: ArticleRow[]) =>
        texts.set(
          revisionId,
          list.map((a) => ({ ...a, law_revision_id: revisionId, law_slug: f.law_slug, egov_law_id: f.egov_law_id })),
        );
      keep(data.revision.law_revision_id, rows);
      for (const [rid, answer] of Object.entries(f.revision_data ?? {})) keep(rid, articlesOf(lawDataOf(answer).fullText));
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
    // Only the text of revisions on record (a revision is never dropped, so neither is its text).
    for (const rid of texts.keys()) if (!revisions.has(rid)) texts.delete(rid);
    report.counts.revision_texts = texts.size;
    report.quarantine = tally.summary(config.syncMaxBadShare);
    const drift = tally.drift(config.syncMaxBadShare, 'laws');
    if (drift) return refuseDrift(config.dataDir, report, 'e-Gov', drift);

    return await publishSync({
      config,
      source: SOURCE,
      files: {
        laws,
        law_articles: articles,
        law_revisions: [...revisions.values()].map((r) => ({ _overlay: 'new', ...r })),
        law_revision_articles: [...texts.values()].flat().map((a) => ({ _overlay: 'new', ...a })),
      },
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
