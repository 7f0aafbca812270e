// Article numbers of statutes: read as people write them (第二十一条の二,
// 21条の2, 21-2, 附則第3条), as the dataset keys them (`21_2`, `1_附3`), as a
// sort key, and as a label. The one reading of an article reference:
// GET /v1/laws/{id}/articles/{art} and /v1/am/law_article both resolve
// through queries/law-articles.ts#findArticle, which uses it. Pure;
// unit-tested in test/entity-graph/units.test.ts.
import { kanjiToNumber } from './japanese-numbers.ts';

export interface ArticleNumber {
  /** Main article number (第21条 -> 21). */
  main: number;
  /** Branch numbers (第21条の2の3 -> [2, 3]). */
  branches: number[];
  /** 附則 (supplementary provisions). */
  supplementary: boolean;
}

/**
 * Parse an article number as people write it: `第二十一条の二`, `21条の2`,
 * `第21条`, `21-2`, `21_2`, `21`, `附則第3条`. Paragraph suffixes (第1項) are
 * ignored. Null when no article number can be read.
 */
export function parseArticleNumber(input: string): ArticleNumber | null {
  let t = input.normalize('NFKC').replace(/\s+/g, '').trim();
  if (t === '' || t.length > 40) return null;
  const supplementary = /^附則/.test(t);
  t = t.replace(/^附則/, '').replace(/^第/, '');
  // Drop paragraph / item suffixes: 第1項, 第2号.
  t = t.replace(/第[^条]*[項号].*$/, '').replace(/(項|号).*$/, '');
  let m = /^([0-9〇零一二三四五六七八九十百千]+)条((?:の[0-9〇零一二三四五六七八九十百千]+)*)$/.exec(t);
  if (m) {
    const main = kanjiToNumber(m[1]);
    const branches = m[2].split('の').filter(Boolean).map(kanjiToNumber);
    if (main === null || branches.some((b) => b === null)) return null;
    return { main, branches: branches as number[], supplementary };
  }
  m = /^(\d+)(?:[-_の](\d+))?(?:[-_の](\d+))?$/.exec(t);
  if (m) {
    return { main: Number(m[1]), branches: [m[2], m[3]].filter(Boolean).map(Number), supplementary };
  }
  return null;
}

/** Sort key of an article number: 21 -> 21000000, 21の2 -> 21002000, 21の2の3 -> 21002003. */
export function articleSortKey(a: ArticleNumber): number {
  return a.main * 1_000_000 + (a.branches[0] ?? 0) * 1000 + (a.branches[1] ?? 0);
}

/** The dataset's article_key (`21_2`, `1_附3`, `57:57_3`) read as an article number. */
export function articleFromKey(key: string): ArticleNumber | null {
  const supplementary = key.includes('附');
  const head = key.split(':')[0].replace(/_附\d+$/, '');
  const parts = head.split('_').map(Number);
  if (parts.some((p) => !Number.isInteger(p))) return null;
  return { main: parts[0], branches: parts.slice(1), supplementary };
}

/** 第二十一条の二 style label of an article number. */
export function articleLabel(a: ArticleNumber): string {
  return `${a.supplementary ? '附則' : ''}第${a.main}条${a.branches.map((b) => `の${b}`).join('')}`;
}
