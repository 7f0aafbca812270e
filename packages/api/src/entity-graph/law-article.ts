// /v1/am/law_article: the text of one statute article from a law name or id
// and an article number as people write it.
import type { CatalogDatabase } from '../catalog/db.ts';
import { articleLabel, articleSortKey, parseArticleNumber } from './articles.ts';
import { amError, type AmError } from './envelope.ts';
import { resolveLaw } from './law-resolution.ts';
import { lawArticle, lawArticleCount } from './queries/law-articles.ts';

export function lawArticleLookup(db: CatalogDatabase, p: { law_name_or_canonical_id: string; article_number: string }) {
  const empty = {
    found: false,
    article_id: null,
    article_number: null,
    article_number_sort: null,
    effective_from: null,
    effective_until: null,
    last_amended: null,
    law: null as Record<string, unknown> | null,
    source_fetched_at: null,
    source_url: null,
    text_full: null,
    text_summary: null,
    title: null,
    error: null as AmError | null,
    law_aliases_tried: [] as string[],
  };
  if (p.law_name_or_canonical_id.trim() === '' || p.article_number.trim() === '') {
    return { ...empty, error: amError('empty_input', 'law_name_or_canonical_id and article_number are required') };
  }
  const article = parseArticleNumber(p.article_number);
  if (!article) return { ...empty, error: amError('invalid_input', 'article_number is not an article number', 'e.g. 第17条, 第二十一条の二, 17-2, 附則第3条') };
  const { laws, tried } = resolveLaw(db, p.law_name_or_canonical_id);
  if (laws.length === 0)
    return {
      ...empty,
      law_aliases_tried: tried,
      error: amError('no_matching_records', 'no law matches this name or id', 'give the formal title, a known short name (略称) or a LAW- id'),
    };
  const law = laws.find((l) => lawArticleCount(db, l.entity_id) > 0) ?? laws[0];
  const lawObj = {
    law_id: law.entity_id,
    title: law.name,
    law_number: law.facts.law_number ?? null,
    egov_law_id: law.facts.egov_law_id ?? null,
    status: law.status,
    enforced_on: law.valid_from,
    last_amended_on: law.facts.last_amended_on ?? null,
    source_url: law.source_url,
  };
  const sort = articleSortKey(article);
  const row = lawArticle(db, law.entity_id, sort, article.supplementary);
  if (!row) {
    const shipped = lawArticleCount(db, law.entity_id) > 0;
    return {
      ...empty,
      law: lawObj,
      law_aliases_tried: tried,
      article_number: articleLabel(article),
      article_number_sort: sort,
      source_url: law.source_url,
      error: amError(
        'no_matching_records',
        shipped
          ? `the law has no article ${articleLabel(article)} in the shipped text`
          : 'article text of this law is not in the dataset (79 laws ship their articles)',
        shipped
          ? law.facts.articles_truncated
            ? 'the source page showed only the first 250 articles'
            : 'check the number'
          : 'read the article at source_url (e-Gov)',
      ),
    };
  }
  const body = row.text.replace(/^（[^）]*）/, '').trim();
  const summary = body.length > 160 ? `${body.slice(0, 160)}…` : body;
  return {
    ...empty,
    found: true,
    article_id: `${law.entity_id}#${row.article_key}`,
    article_number: row.article_label ?? articleLabel(article),
    article_number_sort: sort,
    effective_from: law.valid_from,
    effective_until: law.status === 'repealed' ? ((law.facts.last_amended_on as string | undefined) ?? null) : null,
    last_amended: (law.facts.last_amended_on as string | undefined) ?? null,
    law: lawObj,
    source_fetched_at: law.fetched_at,
    source_url: law.source_url,
    text_full: row.text,
    text_summary: summary,
    title: row.caption ? row.caption.replace(/^（|）$/g, '') : null,
    law_aliases_tried: tried,
  };
}
