// What a record set is, said once. A spec (one file per set in this folder)
// names its table, columns, dataset file and validation schema, the fields
// its free text searches, its filters with their SQL, its detail key, its row
// shape, its REST operations and its tool names. Everything else is produced
// from it by generic code:
//   ingest/loaders/typed-records.ts  the typed table, its trigram index and indexes
//   catalog/queries/record-sets.ts    one search and one get over any spec
//   schemas/record-sets.ts            the TypeBox query, row and response schemas
//   routes/v1/record-sets.ts          GET /v1/<name>/search and /v1/<name>/{id}
//   catalog/record-sets/public.ts     the part the MCP tools see (written into packages/mcp)
// docs/record-sets.md walks through adding one.
import type { TObject, TSchema } from 'typebox';
import type { CatalogDatabase } from '../db.ts';

/** How a dataset field is stored: arrays and objects as JSON text, booleans as 0/1. */
export type ColumnKind = 'text' | 'int' | 'real' | 'json' | 'bool';
export type Row = Record<string, unknown>;
export type SqlParam = string | number | null;

/** One column of the trigram index `<table>_fts`. */
export interface SearchField {
  /** bm25 weight of this column (higher ranks a match here first). */
  weight: number;
  /** Dataset fields whose values (arrays flattened, empty ones dropped) make the column's text; default: the column's own name. */
  from?: string[];
  /** The column's text when `from` is not enough. */
  text?(record: Row): string | null | undefined;
  /** A 1–2 character term is matched by LIKE against this column. */
  short?: boolean;
}

/** One typed table loaded from one dataset file. */
export interface TableSpec {
  table: string;
  /** Dataset file base name (`enforcement` -> enforcement.jsonl or .jsonl.gz). */
  file: string;
  /** Every dataset line must match it (else the line is rejected with the reason). */
  schema: TObject;
  /** Dataset fields in column order, with their storage kind; the row served has these keys. */
  columns: Record<string, ColumnKind>;
  /** Columns computed from the record; `served: false` keeps one out of rows (a filter-only column). */
  derived?: Record<string, { kind: ColumnKind; value(record: Row): unknown; served?: boolean }>;
  /** Column lists (comma-separated) that must be unique; a duplicate line is rejected. */
  unique?: string[];
  /** Extra indexes, each a comma-separated column list. */
  indexes?: string[];
  /** Trigram full-text columns, in index order. */
  searchable?: Record<string, SearchField>;
  /** Checks beyond the schema (e.g. check digits): a reason, or null. */
  check?(record: Row): string | null;
  /**
   * A valid record read into the set's one unit per field before it is
   * stored (e.g. a rate written as a fraction read as per cent); each value
   * it changes is named in the record's `provenance` (a derived column).
   */
  normalise?(record: Row): Row;
  /**
   * A reviewed data file (data/overrides/, JSON Lines, `//` comments) whose
   * records are added after the dataset's: each must validate, carry
   * `review: {reason, sources}`, and not repeat an id; any that does not fails
   * the build (hand-made data is reviewed data, decision 0398).
   */
  reviewed?: string;
  /** Field naming a record in rejection reasons. */
  idField?: string;
}

/**
 * One filter, datasette's filters-as-a-table: the public parameter (name,
 * TypeBox type with its description) and the SQL clause it adds, over the
 * table aliased `r`, with `?` for the bound value (every `?` binds the same
 * value). Values are never spliced into SQL.
 */
export interface Filter {
  name: string;
  /** Other names REST accepts for the same filter (the tools' parameter names). */
  aliases?: string[];
  type: TSchema;
  sql: string;
  /** The parameter as bound (default: the value itself). */
  bind?(value: never): SqlParam;
  /** A shared vocabulary the value belongs to: the tools normalise aliases (東京 -> 東京都) before sending. */
  vocabulary?: 'prefecture';
}

export interface Operation {
  operationId: string;
  summary: string;
}

/** A search tool over the set's search operation (packages/mcp). */
export interface SearchToolSpec {
  name: string;
  title: string;
  description: string;
  /** What the free text `q` searches, in the tool's words. */
  q: string;
  /** Plural noun of a result, for the `limit` description. */
  noun: string;
  /**
   * Tool parameters: name -> the filter (name or alias) it sets; optionally a
   * tool-facing description and, where the REST filter takes free text, the
   * values the tool offers.
   */
  params: Record<string, string | { filter: string; description?: string; values?: readonly string[] }>;
  /** Filters the tool always sets (e.g. only loans, not mutual-aid plans). */
  fixed?: Record<string, string | number | boolean>;
}

/** A get tool over the set's detail operation. */
export interface GetToolSpec {
  name: string;
  title: string;
  description: string;
  /** The tool's id parameter: its pattern (with an example for the error message), or numbers accepted as well as strings. */
  id: { name: string; description: string; pattern?: string; example?: string; numeric?: boolean };
}

export interface RecordSetSpec extends TableSpec {
  /** REST path segment (`/v1/<name>`), OpenAPI tag and the key of the client resource. */
  name: string;
  /** What one record is called in a 404 (`Enforcement record not found: …`). */
  label: string;
  /** Attribution block of every response (default: the catalogue's, schemas/common.ts ATTRIBUTION). */
  attribution?: Readonly<{ source: string; source_url: string; license: string; edited: boolean; notice: string }>;
  row: {
    /** Component name of the row schema. */
    $id: string;
    description?: string;
    /** Fields the row shape adds to the columns. */
    extra?: Record<string, TSchema>;
    /** The whole row schema, when the rows have a fixed contract; rows are then serialised by it (unknown keys dropped). */
    exact?: TObject;
  };
  /** The row as served, from the decoded columns. */
  shape?(row: Row): Row;
  search: Operation & {
    /** Response component name. */
    responseId: string;
    /** The `q` parameter, when its description says more than the default. */
    q?: TSchema;
    filters: Filter[];
    /** Pairs [low, high] of filters where low must not exceed high. */
    ranges?: [string, string][];
    /** ORDER BY without text search (columns of `r`); with text, bm25 comes first. */
    order: string;
    /** Spellings of one concept: a (normalised) term matches any of them. */
    synonyms?: Record<string, string[]>;
  };
  detail: Operation & {
    /** Path parameter (default `id`, at most 200 characters). */
    param?: { name: string; maxLength: number };
    /**
     * Columns an id is looked up in (any may match). The first is the
     * record's one public id: REST and /v1/am both publish it (docs/record-sets.md, "Ids").
     */
    keys: string[];
    /**
     * An older spelling of an id that still names the record (an alias): the
     * value it stands for in the key columns, or null when `id` is not one.
     */
    alias?(id: string): string | null;
    /** ORDER BY picking one row when several match. */
    prefer?: string;
    /** The detail's own schema when it adds fields to the row (component name and fields; the attribution block is added). */
    schema?: { $id: string; extra: Record<string, TSchema> };
    /** Adds fields to the detail row (e.g. counts from another table). */
    extend?(db: CatalogDatabase, row: Row): Row;
  };
  /** Further tables loaded with the set (e.g. the articles of the laws). */
  tables?: TableSpec[];
  tools?: { search?: SearchToolSpec; get?: GetToolSpec };
}

/** Identity, for type checking and readable spec files. */
export const defineRecordSet = (spec: RecordSetSpec): RecordSetSpec => spec;
export const defineTable = (spec: TableSpec): TableSpec => spec;

/** Columns served in rows: the dataset fields, then the derived columns not kept back. */
export function servedColumns(spec: TableSpec): [string, ColumnKind][] {
  return [
    ...Object.entries(spec.columns),
    ...Object.entries(spec.derived ?? {})
      .filter(([, d]) => d.served !== false)
      .map(([name, d]) => [name, d.kind] as [string, ColumnKind]),
  ];
}

/** Every stored column: the dataset fields, then every derived column. */
export function storedColumns(spec: TableSpec): [string, ColumnKind][] {
  return [...Object.entries(spec.columns), ...Object.entries(spec.derived ?? {}).map(([name, d]) => [name, d.kind] as [string, ColumnKind])];
}

/** The text of a `from` list: each field's value (arrays flattened), empty ones dropped, space-joined. */
export function joinFields(record: Row, fields: string[]): string {
  return fields
    .flatMap((f) => (Array.isArray(record[f]) ? (record[f] as unknown[]) : [record[f]]))
    .filter(Boolean)
    .join(' ');
}
