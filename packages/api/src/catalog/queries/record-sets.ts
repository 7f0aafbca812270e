// The reads of every record set: one search and one get over a spec
// (record-sets/spec.ts).
//
// Search: free text through the table's trigram index `<table>_fts` (3+
// character terms as quoted phrases ranked by bm25 with the spec's column
// weights, 1–2 character terms as escaped LIKE, exactly as program search),
// the spec's filters as bound clauses, the spec's order. Text is folded by
// programme search's rule (search-text.ts#searchNormalize: width, case,
// katakana to hiragana) on both sides: the loader indexes the folded text and
// a query is folded before it is matched. Rows are the served columns, decoded
// (JSON parsed, booleans as booleans), then shaped by the spec.
//
// These are the only reads of a record set's table: REST (routes/v1/record-sets.ts)
// and /v1/am (entity-graph/) both call them.
import type { CatalogDatabase } from '../db.ts';
import { buildTextQuery, ftsPhrase } from '../text-query.ts';
import { searchNormalize } from '../search-text.ts';
import { servedColumns, storedColumns, type RecordSetSpec, type Row, type SqlParam, type TableSpec } from '../record-sets/spec.ts';

export type { Row } from '../record-sets/spec.ts';

export interface Page {
  limit: number;
  offset: number;
}

/** A search over one typed table, the clauses already built. */
export interface TableSearch extends Page {
  q?: string;
  where: string[];
  params: SqlParam[];
  /** ORDER BY without text search (columns of alias `r`). */
  order: string;
  /** Synonyms of a (normalised) term; a term then matches any of its spellings. */
  synonyms?: Record<string, string[]>;
}

const foldedSynonyms = new WeakMap<Record<string, string[]>, Map<string, string[]>>();

/** A spec's synonyms keyed and valued in the folded form queries are matched in. */
function folded(synonyms: Record<string, string[]>): Map<string, string[]> {
  let map = foldedSynonyms.get(synonyms);
  if (!map) {
    map = new Map(Object.entries(synonyms).map(([term, others]) => [searchNormalize(term), others.map(searchNormalize)]));
    foldedSynonyms.set(synonyms, map);
  }
  return map;
}

/** The MATCH expression with each 3+ character term widened to its synonyms (all quoted phrases). */
function expandMatch(q: string, synonyms: Record<string, string[]>): string | null {
  const terms = [...new Set(searchNormalize(q).split(' '))].filter((t) => [...t].length >= 3);
  if (terms.length === 0) return null;
  const spellings = folded(synonyms);
  return terms
    .map((t) => {
      const alternatives = [t, ...(spellings.get(t) ?? [])];
      return alternatives.length === 1 ? ftsPhrase(t) : `(${alternatives.map(ftsPhrase).join(' OR ')})`;
    })
    .join(' AND ');
}

const selectList = (spec: TableSpec) =>
  servedColumns(spec)
    .map(([name]) => `r.${name}`)
    .join(', ');

/** A row of a typed table as JSON: its served columns, JSON parsed, booleans as booleans. */
export function decodeRow(spec: TableSpec, raw: Row): Row {
  const out: Row = {};
  for (const [name, kind] of servedColumns(spec)) {
    const value = raw[name];
    if (value === null || value === undefined) out[name] = null;
    else if (kind === 'json') out[name] = JSON.parse(value as string);
    else if (kind === 'bool') out[name] = value === 1;
    else out[name] = value;
  }
  return out;
}

/** The FROM, WHERE, ORDER BY and bound values of a search (no paging). */
function tableSearchSql(spec: TableSpec, s: Omit<TableSearch, 'limit' | 'offset'>): { from: string; whereSql: string; order: string; params: SqlParam[] } {
  const where = [...s.where];
  const params = [...s.params];
  const text = s.q !== undefined ? buildTextQuery(searchNormalize(s.q)) : null;
  if (text?.match && s.synonyms && s.q !== undefined) text.match = expandMatch(s.q, s.synonyms);
  const fts = `${spec.table}_fts`;
  let from = `${spec.table} r`;
  let order = s.order;
  if (text) {
    const searchable = Object.entries(spec.searchable ?? {});
    from = `${fts} f JOIN ${spec.table} r ON r.row_id = f.rowid`;
    if (text.match) {
      where.unshift(`${fts} MATCH ?`);
      params.unshift(text.match);
      order = `bm25(${fts}, ${searchable.map(([, field]) => field.weight.toFixed(1)).join(', ')}), ${s.order}`;
    }
    const likeColumns = searchable.filter(([, field]) => field.short).map(([column]) => column);
    // Every short term must match one of the columns. The terms are bound as
    // one JSON array, so the SQL text is the same for one term or thirty: the
    // prepared-statement cache (db.ts) holds one statement per filter shape,
    // not one per number of terms (issue 11, finding 11).
    if (text.likes.length > 0) {
      where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) t WHERE NOT (${likeColumns.map((c) => `f.${c} LIKE t.value ESCAPE '\\'`).join(' OR ')}))`);
      params.push(JSON.stringify(text.likes));
    }
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return { from, whereSql, order, params };
}

export function searchTable(db: CatalogDatabase, spec: TableSpec, s: TableSearch): { total: number; rows: Row[] } {
  const { from, whereSql, order, params } = tableSearchSql(spec, s);
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} ${whereSql}`, ...params)?.n ?? 0;
  const rows =
    total === 0 || s.offset >= total
      ? []
      : db.all<Row>(`SELECT ${selectList(spec)} FROM ${from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...params, s.limit, s.offset);
  return { total, rows: rows.map((r) => decodeRow(spec, r)) };
}

/** A search's total and its rows one at a time (decoded), from `offset`, at most `limit`: for exports. */
export function streamTable(db: CatalogDatabase, spec: TableSpec, s: TableSearch): { total: number; rows: Iterable<Row> } {
  const { from, whereSql, order, params } = tableSearchSql(spec, s);
  const total = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} ${whereSql}`, ...params)?.n ?? 0;
  const raw = db.iterate<Row>(`SELECT ${selectList(spec)} FROM ${from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...params, s.limit, s.offset);
  return {
    total,
    rows: (function* () {
      for (const r of raw) yield decodeRow(spec, r);
    })(),
  };
}

/** The first row matching `where` (bound `params`) in `order`, decoded; undefined when none. */
export function firstRow(db: CatalogDatabase, spec: TableSpec, where: string, order: string, ...params: SqlParam[]): Row | undefined {
  const raw = db.get<Row>(`SELECT ${selectList(spec)} FROM ${spec.table} r WHERE ${where} ORDER BY ${order} LIMIT 1`, ...params);
  return raw ? decodeRow(spec, raw) : undefined;
}

/** Filter values by filter name (aliases already resolved, validated by the route). */
export type FilterValues = Record<string, string | number | boolean>;

export interface RecordSearch extends Page {
  q?: string;
  filters: FilterValues;
}

/** The bound clauses of the given filter values, in the spec's filter order. */
export function filterClauses(spec: RecordSetSpec, values: FilterValues): { where: string[]; params: SqlParam[] } {
  const where: string[] = [];
  const params: SqlParam[] = [];
  for (const filter of spec.search.filters) {
    const value = values[filter.name];
    if (value === undefined) continue;
    const bound = filter.bind ? filter.bind(value as never) : typeof value === 'boolean' ? Number(value) : value;
    where.push(filter.sql);
    for (let i = filter.sql.split('?').length - 1; i > 0; i--) params.push(bound);
  }
  return { where, params };
}

/** The table search of a record search: the spec's filters as clauses, its order and synonyms. */
const tableSearch = (spec: RecordSetSpec, s: RecordSearch): TableSearch => ({
  q: s.q,
  ...filterClauses(spec, s.filters),
  limit: s.limit,
  offset: s.offset,
  order: spec.search.order,
  synonyms: spec.search.synonyms,
});

/** GET /v1/<set>/search: total and the page of shaped rows. */
export function searchRecords(db: CatalogDatabase, spec: RecordSetSpec, s: RecordSearch): { total: number; rows: Row[] } {
  const result = searchTable(db, spec, tableSearch(spec, s));
  return { total: result.total, rows: spec.shape ? result.rows.map(spec.shape) : result.rows };
}

/** The same search as `searchRecords`, as a stream of shaped rows (exports): the total, and rows from `offset`, at most `limit`. */
export function streamRecords(db: CatalogDatabase, spec: RecordSetSpec, s: RecordSearch): { total: number; rows: Iterable<Row> } {
  const result = streamTable(db, spec, tableSearch(spec, s));
  const shape = spec.shape;
  return {
    total: result.total,
    rows: shape
      ? (function* () {
          for (const r of result.rows) yield shape(r);
        })()
      : result.rows,
  };
}

/**
 * GET /v1/<set>/{id}: the row whose key columns (any) equal `id`, or the
 * value an alias of the spec stands for (LOAN-12 -> 12), shaped and extended;
 * undefined when none.
 */
export function getRecord(db: CatalogDatabase, spec: RecordSetSpec, id: string): Row | undefined {
  const { keys, prefer, extend, alias } = spec.detail;
  const key = alias?.(id) ?? id;
  const row = firstRow(db, spec, keys.map((k) => `r.${k} = ?1`).join(' OR '), prefer ?? 'r.row_id', key);
  if (!row) return undefined;
  const shaped = spec.shape ? spec.shape(row) : row;
  return extend ? extend(db, shaped) : shaped;
}

/** The record's one public id: its first key column (docs/record-sets.md, "Ids"). */
export function recordId(spec: RecordSetSpec, row: Row): string | null {
  const id = row[spec.detail.keys[0]];
  return id === null || id === undefined ? null : String(id);
}

/** The values of one column with the number of records holding each, most frequent first (blank values left out). */
export function valueCounts(db: CatalogDatabase, spec: TableSpec, column: string): { value: string; count: number }[] {
  if (!storedColumns(spec).some(([name]) => name === column)) throw new Error(`${spec.table} has no column ${column}`);
  return db.all<{ value: string; count: number }>(
    `SELECT r.${column} AS value, count(*) AS count FROM ${spec.table} r WHERE r.${column} IS NOT NULL AND r.${column} <> '' GROUP BY r.${column} ORDER BY count DESC, value`,
  );
}
