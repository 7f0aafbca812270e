// Search and detail reads of the related record sets (loans, tax rulesets,
// enforcement, laws and articles, case studies, certifications, bids).
//
// One generic search over a typed table (catalog/loaders/typed-records.ts):
// free text through the table's trigram index `<table>_fts` (3+ character
// terms as quoted phrases, 1–2 character terms as escaped LIKE, exactly as
// program search), structured filters as bound parameters, a stable order.
import type { CatalogDatabase } from '../db.ts';
import { buildTextQuery, ftsPhrase, likeContains, normalizeText } from '../text-query.ts';
import { TABLE_COLUMNS } from '../loaders/typed-records.ts';
import { BID_FIELDS } from '../bid-record.ts';

type Param = string | number | null;
export type Row = Record<string, unknown>;

export interface Page {
  limit: number;
  offset: number;
}

export interface TableSearch extends Page {
  table: string;
  q?: string;
  where: string[];
  params: Param[];
  /** ORDER BY without text search (columns of alias `r`). */
  order: string;
  /** bm25 column weights of `<table>_fts` (first column first). */
  weights: number[];
  /** FTS columns a 1–2 character term is matched against. */
  likeColumns: string[];
  /** Synonyms of a (normalised) term; a term then matches any of its spellings. */
  synonyms?: Record<string, string[]>;
}

/** The MATCH expression with each 3+ character term widened to its synonyms (all quoted phrases). */
function expandMatch(q: string, synonyms: Record<string, string[]>): string | null {
  const terms = [...new Set(normalizeText(q).split(' '))].filter((t) => [...t].length >= 3);
  if (terms.length === 0) return null;
  return terms.map((t) => {
    const alternatives = [t, ...(synonyms[t] ?? []).map(normalizeText)];
    return alternatives.length === 1 ? ftsPhrase(t) : `(${alternatives.map(ftsPhrase).join(' OR ')})`;
  }).join(' AND ');
}

/** A row of a typed table as JSON: JSON columns parsed, booleans as booleans, row_id dropped. */
export function decodeRow(table: string, raw: Row): Row {
  const kinds = TABLE_COLUMNS.get(table) ?? {};
  const out: Row = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'row_id') continue;
    const kind = kinds[key];
    if (value === null || value === undefined) out[key] = null;
    else if (kind === 'json') out[key] = JSON.parse(value as string);
    else if (kind === 'bool') out[key] = value === 1;
    else out[key] = value;
  }
  return out;
}

export function searchTable(db: CatalogDatabase, s: TableSearch): { total: number; rows: Row[] } {
  const where = [...s.where];
  const params = [...s.params];
  const text = s.q !== undefined ? buildTextQuery(s.q) : null;
  if (text && text.match && s.synonyms && s.q !== undefined) text.match = expandMatch(s.q, s.synonyms);
  let from = `${s.table} r`;
  let order = s.order;
  if (text) {
    from = `${s.table}_fts f JOIN ${s.table} r ON r.row_id = f.rowid`;
    if (text.match) {
      where.unshift(`${s.table}_fts MATCH ?`);
      params.unshift(text.match);
      order = `bm25(${s.table}_fts, ${s.weights.map((w) => w.toFixed(1)).join(', ')}), ${s.order}`;
    }
    for (const like of text.likes) {
      where.push(`(${s.likeColumns.map((c) => `f.${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      params.push(...s.likeColumns.map(() => like));
    }
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} ${whereSql}`, ...params)?.n ?? 0;
  const rows = total === 0 || s.offset >= total
    ? []
    : db.all<Row>(`SELECT r.* FROM ${from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...params, s.limit, s.offset);
  return { total, rows: rows.map((r) => decodeRow(s.table, r)) };
}

function getOne(db: CatalogDatabase, sql: string, table: string, ...params: Param[]): Row | undefined {
  const raw = db.get<Row>(sql, ...params);
  return raw ? decodeRow(table, raw) : undefined;
}

/** Filter builder: every value bound, never spliced. */
class Filters {
  where: string[] = [];
  params: Param[] = [];
  add(sql: string, ...params: Param[]): void {
    this.where.push(sql);
    this.params.push(...params);
  }
}

const TIER_ORDER_SQL = "coalesce(instr('SABCX', r.tier), 6)";

// ---------------------------------------------------------------- loans

export const RISK_AXES = { collateral: 'collateral_required', personal_guarantor: 'personal_guarantor_required', third_party_guarantor: 'third_party_guarantor_required' } as const;
export type RiskAxis = keyof typeof RISK_AXES;

export interface LoanSearch extends Page {
  q?: string;
  planType?: string;
  prefecture?: string;
  risk: Partial<Record<RiskAxis, string>>;
}

/** Loan rows: the dataset fields plus `id`; a risk axis the source does not state reads `unknown`. */
export function loanRow(r: Row): Row {
  for (const column of Object.values(RISK_AXES)) r[column] ??= 'unknown';
  return r;
}

export function searchLoans(db: CatalogDatabase, s: LoanSearch) {
  const f = new Filters();
  if (s.planType) f.add('r.plan_type = ?', s.planType);
  if (s.prefecture) f.add('r.prefecture = ?', s.prefecture);
  for (const [axis, value] of Object.entries(s.risk)) {
    if (value) f.add(`coalesce(r.${RISK_AXES[axis as RiskAxis]}, 'unknown') = ?`, value);
  }
  const result = searchTable(db, {
    table: 'loans_mutual_aid', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: `r.loan_id IS NULL, ${TIER_ORDER_SQL}, r.name, r.id`, weights: [10, 1], likeColumns: ['name', 'other'],
  });
  return { total: result.total, rows: result.rows.map(loanRow) };
}

export function getLoan(db: CatalogDatabase, id: string): Row | undefined {
  const row = getOne(db, 'SELECT * FROM loans_mutual_aid WHERE id = ?', 'loans_mutual_aid', id);
  return row ? loanRow(row) : undefined;
}

// ---------------------------------------------------------------- tax rulesets

export interface TaxSearch extends Page {
  q?: string;
  effectiveOn?: string;
  taxCategory?: string;
  rulesetKind?: string;
}

/** Tax rows: the dataset fields plus the contract's names `rule_name`, `effective_to`, `sunset_date`. */
export function taxRow(r: Row): Row {
  return { ...r, rule_name: r.ruleset_name, effective_to: r.effective_until, sunset_date: r.effective_until };
}

/**
 * Spellings of the same tax concept: the invoice system is written インボイス,
 * 適格請求書 or (in the upstream condition fields) invoice.
 */
export const TAX_SYNONYMS: Record<string, string[]> = {
  インボイス: ['適格請求書', 'invoice'],
  適格請求書: ['インボイス', 'invoice'],
  invoice: ['インボイス', '適格請求書'],
  電子帳簿: ['電帳法', '電子帳簿保存'],
  電帳法: ['電子帳簿'],
};

export function searchTaxRulesets(db: CatalogDatabase, s: TaxSearch) {
  const f = new Filters();
  if (s.effectiveOn) {
    f.add('(r.effective_from IS NULL OR r.effective_from <= ?) AND (r.effective_until IS NULL OR r.effective_until >= ?)', s.effectiveOn, s.effectiveOn);
  }
  if (s.taxCategory) f.add('r.tax_category = ?', s.taxCategory);
  if (s.rulesetKind) f.add('r.ruleset_kind = ?', s.rulesetKind);
  const result = searchTable(db, {
    table: 'tax_rulesets', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: 'r.effective_from DESC, r.unified_id', weights: [10, 2], likeColumns: ['ruleset_name', 'other'], synonyms: TAX_SYNONYMS,
  });
  return { total: result.total, rows: result.rows.map(taxRow) };
}

export function getTaxRuleset(db: CatalogDatabase, id: string): Row | undefined {
  const row = getOne(db, 'SELECT * FROM tax_rulesets WHERE unified_id = ?', 'tax_rulesets', id);
  return row ? taxRow(row) : undefined;
}

// ---------------------------------------------------------------- enforcement

export interface EnforcementSearch extends Page {
  q?: string;
  authority?: string;
  decidedFrom?: string;
  decidedTo?: string;
  houjinBangou?: string;
  sourceFamily?: string;
  prefecture?: string;
}

export function searchEnforcement(db: CatalogDatabase, s: EnforcementSearch) {
  const f = new Filters();
  if (s.authority) {
    const like = likeContains(s.authority);
    f.add("(r.authority LIKE ? ESCAPE '\\' OR r.bureau LIKE ? ESCAPE '\\')", like, like);
  }
  if (s.decidedFrom) f.add('r.action_date >= ?', s.decidedFrom);
  if (s.decidedTo) f.add('substr(r.action_date, 1, 10) <= ?', s.decidedTo);
  if (s.houjinBangou) f.add('r.houjin_bangou = ?', s.houjinBangou);
  if (s.sourceFamily) f.add('r.source_family = ?', s.sourceFamily);
  if (s.prefecture) f.add('r.prefecture = ?', s.prefecture);
  return searchTable(db, {
    table: 'enforcement', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: 'r.action_date DESC, r.enforcement_id', weights: [5, 5, 1, 1], likeColumns: ['title', 'target_name'],
  });
}

export function getEnforcement(db: CatalogDatabase, id: string): Row | undefined {
  return getOne(db, 'SELECT * FROM enforcement WHERE enforcement_id = ?', 'enforcement', id);
}

// ---------------------------------------------------------------- laws

export interface LawSearch extends Page {
  q?: string;
  status?: string;
  ministryCode?: string;
  category?: string;
}

export function searchLaws(db: CatalogDatabase, s: LawSearch) {
  const f = new Filters();
  if (s.status) f.add('r.status = ?', s.status);
  if (s.ministryCode) f.add('r.ministry_code = ?', s.ministryCode);
  if (s.category) f.add('r.category = ?', s.category);
  return searchTable(db, {
    table: 'laws', q: s.q, ...f, limit: s.limit, offset: s.offset,
    // Pages before index-only entries, then shorter (more general) titles first.
    order: 'r.law_slug IS NULL, length(r.title), r.title, r.row_id', weights: [10, 1], likeColumns: ['title', 'law_number'],
  });
}

/** A law by `LAW-…` id or by law_slug; of two pages sharing a law_id, the one with article text (then a page) wins. */
export function getLaw(db: CatalogDatabase, id: string): Row | undefined {
  const row = getOne(
    db,
    'SELECT * FROM laws WHERE law_id = ?1 OR law_slug = ?1 ORDER BY articles_included DESC, law_slug IS NULL, row_id LIMIT 1',
    'laws',
    id,
  );
  if (!row) return undefined;
  const count = row.law_slug
    ? db.get<{ n: number }>('SELECT count(*) AS n FROM law_articles WHERE law_slug = ?', row.law_slug as string)?.n ?? 0
    : 0;
  return { ...row, article_count: count, article_text_available: count > 0 };
}

export function listArticles(db: CatalogDatabase, lawSlug: string, page: Page, supplementary?: boolean) {
  const f = new Filters();
  f.add('r.law_slug = ?', lawSlug);
  if (supplementary !== undefined) f.add('r.is_supplementary = ?', supplementary ? 1 : 0);
  return searchTable(db, {
    table: 'law_articles', ...f, limit: page.limit, offset: page.offset, order: 'r.seq', weights: [], likeColumns: [],
  });
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
  const first = (sql: string, ...params: Param[]) => getOne(db, `${sql} ORDER BY seq LIMIT 1`, 'law_articles', ...params);
  const exact = first('SELECT * FROM law_articles WHERE law_slug = ? AND article_key = ?', lawSlug, reference);
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
    if (!supplementary) return first('SELECT * FROM law_articles WHERE law_slug = ? AND article_key = ? AND is_supplementary = 0', lawSlug, key);
    return first("SELECT * FROM law_articles WHERE law_slug = ? AND is_supplementary = 1 AND article_key GLOB ? || '_附*'", lawSlug, key);
  }
  if (/^第.+条/.test(ref)) {
    return first('SELECT * FROM law_articles WHERE law_slug = ? AND article_label = ? AND is_supplementary = ?', lawSlug, ref, supplementary ? 1 : 0);
  }
  return undefined;
}

// ---------------------------------------------------------------- case studies

export interface CaseSearch extends Page {
  q?: string;
  prefecture?: string;
  jsicCode?: string;
  industry?: string;
  houjinBangou?: string;
  patternTag?: string;
  employeesMin?: number;
  employeesMax?: number;
}

export function searchCaseStudies(db: CatalogDatabase, s: CaseSearch) {
  const f = new Filters();
  if (s.prefecture) f.add('r.prefecture = ?', s.prefecture);
  // A JSIC major letter (`E`) matches its divisions (`E09`); a full code matches exactly.
  if (s.jsicCode) f.add("r.jsic_code GLOB ? || '*'", s.jsicCode.toUpperCase().replace(/[*?[\]]/g, ''));
  if (s.industry) f.add("r.industry_name LIKE ? ESCAPE '\\'", likeContains(s.industry));
  if (s.houjinBangou) f.add('r.houjin_bangou = ?', s.houjinBangou);
  if (s.patternTag) f.add('EXISTS (SELECT 1 FROM json_each(r.pattern_tags) WHERE json_each.value = ?)', s.patternTag);
  if (s.employeesMin !== undefined) f.add('r.employees >= ?', s.employeesMin);
  if (s.employeesMax !== undefined) f.add('r.employees <= ?', s.employeesMax);
  return searchTable(db, {
    table: 'case_studies', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: 'r.published_date DESC, r.case_id', weights: [5, 5, 1], likeColumns: ['title', 'company_name', 'other'],
  });
}

export function getCaseStudy(db: CatalogDatabase, id: string): Row | undefined {
  return getOne(db, 'SELECT * FROM case_studies WHERE case_id = ?', 'case_studies', id);
}

// ---------------------------------------------------------------- certifications

export interface CertificationSearch extends Page {
  q?: string;
  prefecture?: string;
  authorityLevel?: string;
  tier?: string;
}

export function searchCertifications(db: CatalogDatabase, s: CertificationSearch) {
  const f = new Filters();
  if (s.prefecture) f.add('r.prefecture = ?', s.prefecture);
  if (s.authorityLevel) f.add('r.authority_level = ?', s.authorityLevel);
  if (s.tier) f.add('r.tier = ?', s.tier);
  return searchTable(db, {
    table: 'certifications', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: `${TIER_ORDER_SQL}, r.name, r.unified_id`, weights: [10, 1], likeColumns: ['name', 'other'],
  });
}

export function getCertification(db: CatalogDatabase, id: string): Row | undefined {
  return getOne(db, 'SELECT * FROM certifications WHERE unified_id = ?', 'certifications', id);
}

// ---------------------------------------------------------------- bids

export interface BidSearch extends Page {
  q?: string;
  bidKind?: string;
  procuringHoujinBangou?: string;
  winnerHoujinBangou?: string;
  programIdHint?: string;
  prefecture?: string;
  minAmountYen?: number;
  maxAmountYen?: number;
  deadlineAfter?: string;
}

/** Exactly the BidOut keys (absent optional fields as null). */
export function bidRow(r: Row): Row {
  return Object.fromEntries(BID_FIELDS.map((k) => [k, r[k] ?? null]));
}

export function searchBids(db: CatalogDatabase, s: BidSearch) {
  const f = new Filters();
  if (s.bidKind) f.add('r.bid_kind = ?', s.bidKind);
  if (s.procuringHoujinBangou) f.add('r.procuring_houjin_bangou = ?', s.procuringHoujinBangou);
  if (s.winnerHoujinBangou) f.add('r.winner_houjin_bangou = ?', s.winnerHoujinBangou);
  if (s.programIdHint) f.add('r.program_id_hint = ?', s.programIdHint);
  if (s.prefecture) f.add('r.prefecture = ?', s.prefecture);
  const amount = 'coalesce(r.awarded_amount_yen, r.budget_ceiling_yen)';
  if (s.minAmountYen !== undefined) f.add(`${amount} >= ?`, s.minAmountYen);
  if (s.maxAmountYen !== undefined) f.add(`${amount} <= ?`, s.maxAmountYen);
  if (s.deadlineAfter) f.add('substr(r.bid_deadline, 1, 10) >= ?', s.deadlineAfter);
  const result = searchTable(db, {
    table: 'bids', q: s.q, ...f, limit: s.limit, offset: s.offset,
    order: 'r.announcement_date IS NULL, r.announcement_date DESC, r.unified_id', weights: [10, 1], likeColumns: ['bid_title', 'other'],
  });
  return { total: result.total, rows: result.rows.map(bidRow) };
}

export function getBid(db: CatalogDatabase, id: string): Row | undefined {
  const row = getOne(db, 'SELECT * FROM bids WHERE unified_id = ?', 'bids', id);
  return row ? bidRow(row) : undefined;
}
