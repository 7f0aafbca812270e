// Reads of the article text of a law (record-sets/law-articles.ts), and of
// its revisions and their text as the e-Gov sync keeps them
// (record-sets/law-revisions.ts): the revisions of a law, the one in force on
// a date, and one article of that revision.
import type { CatalogDatabase } from '../db.ts';
import lawArticles from '../record-sets/law-articles.ts';
import { lawRevisionArticles } from '../record-sets/law-revisions.ts';
import { firstRow, searchTable, type Page, type Row } from './record-sets.ts';
import type { SqlParam, TableSpec } from '../record-sets/spec.ts';
import { articleFromKey, articleSortKey, parseArticleNumber } from '../article-numbers.ts';

/** Articles whose text this service holds for the law page `lawSlug`. */
export function articleCount(db: CatalogDatabase, lawSlug: string): number {
  return db.get<{ n: number }>('SELECT count(*) AS n FROM law_articles WHERE law_slug = ?', lawSlug)?.n ?? 0;
}

/** The articles of a law page in page order; `supplementary` keeps only 附則 (true) or only the main provisions (false). */
export function listArticles(db: CatalogDatabase, lawSlug: string, page: Page, supplementary?: boolean) {
  const where = ['r.law_slug = ?'];
  const params: SqlParam[] = [lawSlug];
  if (supplementary !== undefined) {
    where.push('r.is_supplementary = ?');
    params.push(supplementary ? 1 : 0);
  }
  return searchTable(db, lawArticles, { where, params, order: 'r.seq', limit: page.limit, offset: page.offset });
}

/**
 * Resolves an article reference as written by a user to one article of a law
 * (GET /v1/laws/{id}/articles/{art} and /v1/am/law_article):
 *  1. the upstream article_key exactly (`12`, `21_2`, `1_附3`, `32:500`);
 *  2. an article number as people write it (article-numbers.ts): `2の3`, `2-3`,
 *     `2_3`, `第2条の3`, `第二条の三`, `附則第一条`, `附則1`: the first article on the
 *     page (page order) with that number among the main or the supplementary
 *     provisions, so a 附則 reference names the enactment's 附則 (other blocks by key, `1_附3`);
 *  3. a label as printed, for labels the reading in 2 does not cover.
 */
export function findArticle(db: CatalogDatabase, lawSlug: string, reference: string): Row | undefined {
  return resolveArticle(db, lawArticles, 'r.law_slug', lawSlug, reference);
}

/** One article of one revision's text (references resolved as findArticle resolves them). */
export function findRevisionArticle(db: CatalogDatabase, lawRevisionId: string, reference: string): Row | undefined {
  return resolveArticle(db, lawRevisionArticles, 'r.law_revision_id', lawRevisionId, reference);
}

/** findArticle over a table of article rows (`spec`), those whose `keyColumn` is `key` (a constant column name, never input). */
function resolveArticle(db: CatalogDatabase, spec: TableSpec, keyColumn: string, key: string, reference: string): Row | undefined {
  const first = (where: string, ...params: SqlParam[]) => firstRow(db, spec, `${keyColumn} = ? AND ${where}`, 'r.seq', key, ...params);
  const exact = first('r.article_key = ?', reference);
  if (exact) return exact;
  const article = parseArticleNumber(reference);
  if (article) {
    const sort = articleSortKey(article);
    const keys = db.all<{ row_id: number; article_key: string; is_supplementary: number }>(
      `SELECT r.row_id, r.article_key, r.is_supplementary FROM ${spec.table} r WHERE ${keyColumn} = ? ORDER BY r.seq, r.row_id`,
      key,
    );
    const hit = keys.find((k) => {
      const parsed = articleFromKey(k.article_key);
      const supplementary = k.is_supplementary === 1 || k.article_key.includes('附');
      return parsed !== null && articleSortKey(parsed) === sort && supplementary === article.supplementary;
    });
    return hit ? first('r.row_id = ?', hit.row_id) : undefined;
  }
  const label = reference.normalize('NFKC').replace(/\s+/g, '');
  const supplementary = label.startsWith('附則');
  return first('r.article_label = ? AND r.is_supplementary = ?', supplementary ? label.slice(2) : label, supplementary ? 1 : 0);
}

/** A revision of a law as the API serves it. */
export interface LawRevision {
  law_revision_id: string;
  title: string;
  promulgated_on: string | null;
  /** The day it came (or comes) into force. */
  enforced_on: string | null;
  /** e-Gov's current_revision_status: CurrentEnforced, PreviousEnforced, UnEnforced … */
  status: string | null;
  repeal_status: string | null;
  amending_law_title: string | null;
  /** Articles of this revision's text the service holds (0: metadata only). */
  article_count: number;
  first_seen_at: string;
  last_seen_at: string;
}

const day = (v: unknown): string | null => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);

const REVISION_SELECT = `SELECT r.law_revision_id, r.law_title, r.amendment_promulgate_date, r.amendment_enforcement_date,
  r.current_revision_status, r.repeal_status, r.amendment_law_title, r.first_seen_at, r.last_seen_at,
  (SELECT count(*) FROM law_revision_articles a WHERE a.law_revision_id = r.law_revision_id) AS article_count
  FROM law_revisions r`;

function revisionOut(r: Row): LawRevision {
  return {
    law_revision_id: String(r.law_revision_id),
    title: String(r.law_title),
    promulgated_on: day(r.amendment_promulgate_date),
    enforced_on: day(r.amendment_enforcement_date),
    status: (r.current_revision_status as string | null) ?? null,
    repeal_status: (r.repeal_status as string | null) ?? null,
    amending_law_title: (r.amendment_law_title as string | null) || null,
    article_count: Number(r.article_count),
    first_seen_at: String(r.first_seen_at),
    last_seen_at: String(r.last_seen_at),
  };
}

/** Every revision of the law page `lawSlug` the service knows, newest in force first (announced ones before). */
export function listRevisions(db: CatalogDatabase, lawSlug: string): LawRevision[] {
  return db
    .all<Row>(`${REVISION_SELECT} WHERE r.law_slug = ? ORDER BY substr(r.amendment_enforcement_date, 1, 10) DESC, r.law_revision_id DESC`, lawSlug)
    .map(revisionOut);
}

/** The revision in force on `date` (YYYY-MM-DD): the latest whose enforcement day is on or before it; undefined when none is known. */
export function revisionInForce(db: CatalogDatabase, lawSlug: string, date: string): LawRevision | undefined {
  const row = db.get<Row>(
    `${REVISION_SELECT} WHERE r.law_slug = ? AND substr(r.amendment_enforcement_date, 1, 10) <= ?
     ORDER BY substr(r.amendment_enforcement_date, 1, 10) DESC, r.law_revision_id DESC LIMIT 1`,
    lawSlug,
    date,
  );
  return row ? revisionOut(row) : undefined;
}
