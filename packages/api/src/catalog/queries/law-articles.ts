// Reads of the article text of a law (record-sets/law-articles.ts).
import type { CatalogDatabase } from '../db.ts';
import lawArticles from '../record-sets/law-articles.ts';
import { firstRow, searchTable, type Page, type Row } from './record-sets.ts';
import type { SqlParam } from '../record-sets/spec.ts';
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
  const first = (where: string, ...params: SqlParam[]) => firstRow(db, lawArticles, `r.law_slug = ? AND ${where}`, 'r.seq', lawSlug, ...params);
  const exact = first('r.article_key = ?', reference);
  if (exact) return exact;
  const article = parseArticleNumber(reference);
  if (article) {
    const sort = articleSortKey(article);
    const keys = db.all<{ row_id: number; article_key: string; is_supplementary: number }>(
      'SELECT row_id, article_key, is_supplementary FROM law_articles WHERE law_slug = ? ORDER BY seq, row_id',
      lawSlug,
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
