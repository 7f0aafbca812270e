// Reads of the article text of a law (record-sets/law-articles.ts).
import type { CatalogDatabase } from '../db.ts';
import lawArticles from '../record-sets/law-articles.ts';
import { firstRow, searchTable, type Page, type Row } from './record-sets.ts';
import type { SqlParam } from '../record-sets/spec.ts';

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
 * Resolves an article reference as written by a user to one article of a law:
 *  1. the upstream article_key exactly (`12`, `21_2`, `1_附3`, `32:500`);
 *  2. a number with branches: `2の3`, `2-3`, `2_3`, `第2条の3` (digits, NFKC) -> key `2_3`;
 *  3. a label as printed: `第二条の三` -> article_label of the main provisions;
 *  4. supplementary provisions: `附則第一条`, `附則第1条`, `附則1` -> that article of the
 *     first supplementary block on the page (the enactment's 附則); other blocks by key (`1_附3`).
 * Repeated keys or labels (a source quirk) resolve to the first on the page.
 */
export function findArticle(db: CatalogDatabase, lawSlug: string, reference: string): Row | undefined {
  const first = (where: string, ...params: SqlParam[]) => firstRow(db, lawArticles, `r.law_slug = ? AND ${where}`, 'r.seq', lawSlug, ...params);
  const exact = first('r.article_key = ?', reference);
  if (exact) return exact;
  let ref = reference.normalize('NFKC').replace(/\s+/g, '');
  let supplementary = false;
  if (ref.startsWith('附則')) {
    supplementary = true;
    ref = ref.slice(2);
  }
  const digits = /^(?:第)?([0-9]+)(?:条)?((?:(?:の|-|_)[0-9]+)*)$/.exec(ref);
  if (digits) {
    const key = [digits[1], ...digits[2].split(/の|-|_/).filter(Boolean)].join('_');
    if (!supplementary) return first('r.article_key = ? AND r.is_supplementary = 0', key);
    return first("r.is_supplementary = 1 AND r.article_key GLOB ? || '_附*'", key);
  }
  if (/^第.+条/.test(ref)) {
    return first('r.article_label = ? AND r.is_supplementary = ?', ref, supplementary ? 1 : 0);
  }
  return undefined;
}
