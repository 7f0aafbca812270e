// What each cache of a serving process may hold, in bytes, in one place: the
// sum is the most a process keeps beyond its fixed part (code, the search
// columns), and `/metrics` reports each one's holding (jpsp_memory_bytes).
// Every serving process (each cluster worker) has its own, so the process
// tree holds WEB_CONCURRENCY times these. The figures and what they bought
// are in docs/performance.md ("Memory"); decision 0421.
//
// Weights of JavaScript objects are estimates (V8 does not say what one
// object holds): a string counts 2 bytes a character (the catalogue's text is
// mostly outside Latin-1, so V8 stores it two-byte); typed arrays count their
// bytes: a posting 4 bytes, a result entry 4 (its pid) or 12 (with its score).

/** Whole answers (search pages), as UTF-8 bytes plus their compressed forms (http/answers.ts). */
export const PAGE_CACHE_BYTES = 8_000_000;
/** Whole answers (one record each, both views), as UTF-8 bytes plus their compressed forms (http/answers.ts). */
export const DETAIL_CACHE_BYTES = 8_000_000;
/** Each record's JSON text per view, the parts pages are joined from (catalog/programs/records.ts). */
export const RECORD_JSON_BYTES = 12_000_000;
/**
 * Ordered result lists of recent queries, the pages of a query are cut from
 * (catalog/search/engine.ts): typed arrays of pids and scores, 4 or 12 bytes
 * an entry, so about as many lists as the 36 MB of entry objects held before
 * (300,000 entries).
 */
export const RESULT_LIST_BYTES = 4_000_000;
/** Posting lists of recent terms (catalog/search/index.ts). */
export const POSTING_BYTES = 2_000_000;
/**
 * SQLite's own page cache of the read-only catalogue, per connection
 * (catalog/db.ts). The operating system's file cache holds the file once for
 * every process; this private copy only saves the copy from it. Building
 * the search index at start reads the whole file, so the cache is full from
 * the first answer: 2 MB (about SQLite's default of 2,000 KiB) rather than
 * 8 holds ~6 MB less in every worker (decision 0430).
 */
export const CATALOG_PAGE_CACHE_BYTES = 2_000_000;
/**
 * SQLite's page cache of the state store (state/sqlite.ts; one connection
 * per serving process), about SQLite's default, named: usage events, keys,
 * outboxes.
 */
export const STATE_PAGE_CACHE_BYTES = 2_000_000;

/** Bytes a JavaScript string holds (estimate: two-byte storage). */
export const stringBytes = (s: string): number => 2 * s.length;
