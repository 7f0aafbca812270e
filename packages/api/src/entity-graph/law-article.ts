// /v1/am/law_article: the text of one statute article from a law name or id
// and an article number as people write it. The graph finds the laws a name
// means (law-resolution.ts); the law and its article are then read as
// GET /v1/laws/{id}/articles/{art} reads them: the law through the laws spec
// (catalog/record-sets/laws.ts), the article by the one article resolver
// (catalog/queries/law-articles.ts#findArticle).
import type { CatalogDatabase } from '../catalog/db.ts';
import { articleLabel, articleSortKey, parseArticleNumber } from '../catalog/article-numbers.ts';
import { findArticle } from '../catalog/queries/law-articles.ts';
import { getRecord, recordId, type Row } from '../catalog/queries/record-sets.ts';
import lawsSpec from '../catalog/record-sets/laws.ts';
import { datePart } from '../lib/time.ts';
import { amError, type AmError } from './envelope.ts';
import { resolveLaw } from './law-resolution.ts';

/** A text column of a row, or null. */
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

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
  // Of the laws the name means, the one whose article text this service holds, else the first.
  const records = laws.map((l) => getRecord(db, lawsSpec, l.entity_id)).filter((r): r is Row => r !== undefined);
  const law = records.find((r) => r.article_text_available) ?? records[0];
  if (!law) return { ...empty, law_aliases_tried: tried, error: amError('no_matching_records', 'no law matches this name or id') };
  const lastAmended = text(law.last_amended_on);
  const lawObj = {
    law_id: recordId(lawsSpec, law),
    title: text(law.title),
    law_number: text(law.law_number),
    egov_law_id: text(law.egov_law_id),
    status: text(law.status),
    enforced_on: datePart(law.enforced_on),
    last_amended_on: lastAmended,
    source_url: text(law.source_url),
  };
  const sort = articleSortKey(article);
  const row = law.article_text_available ? findArticle(db, law.law_slug as string, p.article_number) : undefined;
  if (!row) {
    const shipped = law.article_text_available === true;
    return {
      ...empty,
      law: lawObj,
      law_aliases_tried: tried,
      article_number: articleLabel(article),
      article_number_sort: sort,
      source_url: lawObj.source_url,
      error: amError(
        'no_matching_records',
        shipped
          ? `the law has no article ${articleLabel(article)} in the shipped text`
          : 'article text of this law is not in the dataset (79 laws ship their articles)',
        shipped
          ? law.articles_truncated
            ? 'the source page showed only the first 250 articles'
            : 'check the number'
          : 'read the article at source_url (e-Gov)',
      ),
    };
  }
  const full = String(row.text);
  const body = full.replace(/^（[^）]*）/, '').trim();
  const summary = body.length > 160 ? `${body.slice(0, 160)}…` : body;
  return {
    ...empty,
    found: true,
    article_id: `${lawObj.law_id}#${row.article_key}`,
    article_number: text(row.article_label) || articleLabel(article),
    article_number_sort: sort,
    effective_from: lawObj.enforced_on,
    effective_until: law.status === 'repealed' ? lastAmended : null,
    last_amended: lastAmended,
    law: lawObj,
    source_fetched_at: text(law.source_fetched_at),
    source_url: lawObj.source_url,
    text_full: full,
    text_summary: summary,
    title: text(row.caption)?.replace(/^（|）$/g, '') || null,
    law_aliases_tried: tried,
  };
}
