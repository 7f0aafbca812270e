// Laws and regulations: metadata of 9,299 laws (6,493 with an e-Gov page,
// 2,806 index-only) and, for 79 of them, the article text (law-articles.ts),
// served under /v1/laws/{id}/articles (routes/v1/laws/articles.ts). Every
// response carries the e-Gov attribution (CC BY 4.0).
import { Type } from 'typebox';
import { defineRecordSet, type Row } from './spec.ts';
import { opt, Str, DateStr, Int, Bool, StrList } from './fields.ts';
import lawArticles from './law-articles.ts';
import { lawRevisionArticles, lawRevisions } from './law-revisions.ts';
import { Literals, Short } from './params.ts';
import { articleCount } from '../queries/law-articles.ts';

/** Attribution of every law response: e-Gov statute data under CC BY 4.0. */
export const EGOV_ATTRIBUTION = Object.freeze({
  source: 'デジタル庁 e-Gov 法令データ提供システム',
  source_url: 'https://laws.e-gov.go.jp/',
  license: 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)',
  edited: true,
  notice:
    '出典: デジタル庁 e-Gov 法令データ提供システム (CC BY 4.0). Article text is whitespace-normalised; ' +
    'metadata (ids, categories, status) is compiled by this service. Verify against e-Gov before relying on it.',
});

export const LAW_TYPES = ['constitution', 'act', 'cabinet_order', 'imperial_order', 'ministerial_ordinance', 'rule'] as const;
export type LawType = (typeof LAW_TYPES)[number];

/**
 * The type of instrument, read from the law number (法令番号: `昭和二十二年法律第四十九号`,
 * `平成十年政令第百号`, `…厚生労働省令第…号`, `国家公安委員会規則第…号`). A law
 * without a number (index-only entries) is typed by its title only where the
 * suffix is decisive (…法, …施行令, …省令); a title ending in 規則 may be a
 * ministerial ordinance (most 施行規則 are), so it stays untyped, as do
 * numbers of other kinds (太政官布告, 決定). No law in the catalogue is a
 * notice (告示) or a guideline.
 */
export function lawType(title: string, lawNumber: string | null | undefined): LawType | null {
  if (lawNumber) {
    const kind = lawNumber.replace(/第.*号$/, '').replace(/^(明治|大正|昭和|平成|令和)[^年]*年/, '');
    if (kind === '憲法') return 'constitution';
    if (kind === '法律') return 'act';
    if (kind === '政令') return 'cabinet_order';
    if (kind === '勅令') return 'imperial_order';
    if (/(省|府|閣|庁)令$/.test(kind)) return 'ministerial_ordinance';
    if (/規則/.test(kind)) return 'rule';
    return null;
  }
  const name = title.replace(/（[^（）]*）$/, '');
  if (/憲法$/.test(name)) return 'constitution';
  if (/法(律)?$/.test(name)) return 'act';
  if (/(施行令|政令)$/.test(name)) return 'cabinet_order';
  if (/(省令|府令)$/.test(name)) return 'ministerial_ordinance';
  return null;
}

export default defineRecordSet({
  name: 'laws',
  label: 'Law',
  table: 'laws',
  file: 'laws',
  idField: 'law_slug',
  attribution: EGOV_ATTRIBUTION,
  schema: Type.Object({
    law_slug: opt(Type.String({ minLength: 1 })),
    law_id: opt(Type.String({ pattern: '^LAW-[0-9a-f]+$' })),
    law_id_candidates: StrList,
    title: Type.String({ minLength: 1 }),
    law_number: Str,
    enforced_on: DateStr,
    last_amended_on: DateStr,
    ministry_code: Str,
    category: Str,
    egov_law_id: Str,
    status: Str,
    source_url: Str,
    source_fetched_at: Str,
    articles_on_page: Int,
    articles_truncated: Bool,
    article_count_estimate: Int,
    articles_included: Bool,
    related_program_count: Int,
  }),
  columns: {
    law_slug: 'text',
    law_id: 'text',
    law_id_candidates: 'json',
    title: 'text',
    law_number: 'text',
    enforced_on: 'text',
    last_amended_on: 'text',
    ministry_code: 'text',
    category: 'text',
    egov_law_id: 'text',
    status: 'text',
    source_url: 'text',
    source_fetched_at: 'text',
    articles_on_page: 'int',
    articles_truncated: 'bool',
    article_count_estimate: 'int',
    articles_included: 'bool',
    related_program_count: 'int',
  },
  derived: {
    // Filter-only: the response rows keep the dataset's fields.
    law_type: { kind: 'text', value: (r) => lawType(r.title as string, r.law_number as string | null), served: false },
    // The law's one id, as /v1/am publishes it: law_id, or LAWSLUG-<slug> for a law upstream gave no id (docs/record-sets.md, "Ids").
    id: { kind: 'text', value: (r) => (r.law_id as string | null) ?? (r.law_slug ? `LAWSLUG-${r.law_slug}` : null) },
  },
  // law_id repeats (14 ids name two pages each); law_slug is unique where present.
  unique: ['law_slug'],
  indexes: ['id', 'law_id', 'egov_law_id', 'status', 'ministry_code', 'category', 'title', 'law_type'],
  searchable: {
    title: { weight: 10, short: true },
    law_number: { weight: 1, short: true },
  },
  // Its articles, and the revisions (with their text) the e-Gov sync keeps:
  // loaded with the set, served by routes/v1/laws/articles.ts and revisions.ts.
  tables: [lawArticles, lawRevisions, lawRevisionArticles],

  row: {
    $id: 'Law',
    description: "`id` is the law's one id: law_id, or LAWSLUG-<law_slug> for a law without one (the entity id of /v1/am).",
  },
  search: {
    operationId: 'searchLaws',
    summary: 'Search laws by title or law number, status, ministry and category',
    responseId: 'LawSearchResponse',
    filters: [
      { name: 'status', type: Short('active, repealed, superseded'), sql: 'r.status = ?' },
      {
        // A third of the laws carry no status (租税特別措置法 among them): "in force" must not hide them.
        name: 'in_force',
        type: Literals(['true'], { description: '`true`: laws not repealed or superseded, including those whose status is not recorded' }),
        sql: "(? = 'true' AND (r.status IS NULL OR r.status NOT IN ('repealed', 'superseded')))",
      },
      { name: 'ministry_code', aliases: ['ministry'], type: Short('e.g. mhlw, meti, mof-nta'), sql: 'r.ministry_code = ?' },
      { name: 'category', type: Short('e.g. 税制, 労働'), sql: 'r.category = ?' },
      {
        name: 'law_type',
        type: Literals(LAW_TYPES, {
          description:
            'Type of instrument, read from the law number (法令番号), else from a decisive title suffix (…法, …施行令, …省令); laws of other or unknown type never match',
        }),
        sql: 'r.law_type = ?',
      },
    ],
    // Pages before index-only entries, then shorter (more general) titles first.
    order: 'r.law_slug IS NULL, length(r.title), r.title, r.row_id',
  },
  detail: {
    operationId: 'getLaw',
    summary: 'One law by its id (LAW-…, or LAWSLUG-<slug> for a law without one) or law_slug, with its article count',
    keys: ['id', 'law_slug'],
    // Of two pages sharing a law_id, the one with article text (then a page) wins.
    prefer: 'articles_included DESC, law_slug IS NULL, row_id',
    schema: {
      $id: 'LawDetail',
      extra: {
        article_count: Type.Integer({ description: 'articles whose text this service holds' }),
        article_text_available: Type.Boolean(),
      },
    },
    extend: (db, row: Row) => {
      const count = row.law_slug ? articleCount(db, row.law_slug as string) : 0;
      return { ...row, article_count: count, article_text_available: count > 0 };
    },
  },
  tools: {
    search: {
      name: 'search_laws',
      title: 'Search laws',
      description:
        "Statutes and regulations by title keywords, type, ministry and status (laws of unrecorded status included). Use to find a law to cite. Not for an article's text (get_law_article_am, which also takes short names such as 租特法). No notices (告示) or guidelines are held.",
      q: 'law titles and numbers',
      noun: 'laws',
      params: {
        law_type: { filter: 'law_type', description: 'Type of instrument (read from the law number)' },
        ministry: { filter: 'ministry', description: 'Ministry code, e.g. mhlw, meti, mof-nta' },
      },
    },
    get: {
      name: 'get_law',
      title: 'Get one law',
      description: 'One statute by its LAW- id: title, number, dates, ministry, status and source_url.',
      id: { name: 'unified_id', description: 'Law id, LAW- followed by 10 hex digits', pattern: '^LAW-[0-9a-f]{10}$', example: 'LAW-0123456789' },
    },
  },
});
