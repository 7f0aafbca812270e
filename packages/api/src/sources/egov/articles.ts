// The articles of a law's full text (the law_full_text element tree of the
// e-Gov 法令API v2) as rows of our law_articles table: one row per Article
// element, its label from ArticleTitle, its caption from ArticleCaption, its
// text the whitespace-normalised text of the whole element (as the dataset's
// rows are), and whether it sits in a supplementary provision (附則).
import type { LawNode } from './shape.ts';

export interface ArticleRow {
  article_key: string;
  article_label: string;
  seq: number;
  caption: string | null;
  is_supplementary: boolean;
  text: string;
}

function textOf(node: LawNode): string {
  if (typeof node === 'string') return node;
  return (node.children ?? []).map(textOf).join('');
}

const child = (node: LawNode, tag: string): LawNode | undefined =>
  typeof node === 'string' ? undefined : node.children?.find((c) => typeof c !== 'string' && c.tag === tag);

export function articlesOf(fullText: LawNode): ArticleRow[] {
  const out: ArticleRow[] = [];
  const walk = (node: LawNode, supplementary: boolean) => {
    if (typeof node === 'string') return;
    if (node.tag === 'Article') {
      const title = child(node, 'ArticleTitle');
      const caption = child(node, 'ArticleCaption');
      const label = title ? textOf(title).trim() : '';
      out.push({
        article_key: `${supplementary ? 'suppl-' : ''}${node.attr?.Num ?? String(out.length + 1)}`,
        article_label: label,
        seq: out.length + 1,
        caption: caption ? textOf(caption).trim() || null : null,
        is_supplementary: supplementary,
        text: textOf(node).replace(/\s+/g, ''),
      });
      return;
    }
    for (const c of node.children ?? []) walk(c, supplementary || node.tag === 'SupplProvision');
  };
  walk(fullText, false);
  return out;
}
