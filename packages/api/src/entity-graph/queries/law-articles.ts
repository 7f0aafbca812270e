// Article text of a law entity, read from the catalogue's `law_articles`.
// A law entity's pages are the `laws` rows carrying its id (a repeated
// upstream id names two pages) or, for a law without one, its
// `LAWSLUG-<slug>`. An article is addressed by its sort key (articles.ts),
// computed from the dataset's article_key; a supplementary provision is one
// flagged so or keyed with 附.
import type { CatalogDatabase } from '../../catalog/db.ts';
import { articleFromKey, articleSortKey } from '../articles.ts';

export interface LawArticleRow {
  law_slug: string;
  article_key: string;
  article_label: string | null;
  seq: number;
  caption: string | null;
  text: string;
}

const PAGES_OF_LAW = `law_slug IN (
  SELECT law_slug FROM laws WHERE law_id = ?1
  UNION ALL SELECT law_slug FROM laws WHERE law_id IS NULL AND substr(?1, 1, 8) = 'LAWSLUG-' AND law_slug = substr(?1, 9))`;

/** The first article (page order) of the law with this sort key, or null. */
export function lawArticle(db: CatalogDatabase, lawId: string, sort: number, supplementary: boolean): LawArticleRow | null {
  const keys = db.all<{ row_id: number; article_key: string; is_supplementary: number }>(
    `SELECT row_id, article_key, is_supplementary FROM law_articles WHERE ${PAGES_OF_LAW} ORDER BY seq, row_id`,
    lawId,
  );
  const hit = keys.find((k) => {
    const parsed = articleFromKey(k.article_key);
    const isSupplementary = k.is_supplementary === 1 || k.article_key.includes('附');
    return parsed !== null && articleSortKey(parsed) === sort && isSupplementary === supplementary;
  });
  if (!hit) return null;
  return db.get<LawArticleRow>('SELECT law_slug, article_key, article_label, seq, caption, text FROM law_articles WHERE row_id = ?', hit.row_id) ?? null;
}

export function lawArticleCount(db: CatalogDatabase, lawId: string): number {
  return db.get<{ n: number }>(`SELECT count(*) AS n FROM law_articles WHERE ${PAGES_OF_LAW}`, lawId)?.n ?? 0;
}
