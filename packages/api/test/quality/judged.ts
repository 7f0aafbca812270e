// The judged query set (test/fixtures/judged_queries.jsonl, described in
// judged_queries.md): queries written from the data, each with graded
// judgments of the programmes a pool of search methods found for it.
// Shared by the file's own checks and by the ranking evaluation.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** 3 = what the person means, 2 = clearly relevant, 1 = marginal, 0 = judged not relevant. */
export type Grade = 0 | 1 | 2 | 3;

/** GET /v1/programs/search parameters; an array is sent as a repeated key. */
export type SearchParams = Record<string, string | number | string[]>;

export interface JudgedQuery {
  id: string;
  query: string;
  params: SearchParams;
  need: string;
  category: string;
  /** Deliberately hard wording; such a query may lack a grade of 2 or more. */
  hard?: boolean;
  /** Arguments after the query text for scripts/judged-pool.ts, which re-creates the judged pool. */
  pool: string;
  /** unified_id → grade. Programmes absent from the map were not judged. */
  judgments: Record<string, Grade>;
}

export const JUDGED_QUERIES_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'judged_queries.jsonl');

export function loadJudgedQueries(file = JUDGED_QUERIES_FILE): JudgedQuery[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JudgedQuery);
}

/** The query string of a judged query's search, with the page size the evaluation asks for. */
export function judgedSearchQuery(params: SearchParams, limit = 10): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  query.set('limit', String(limit));
  return query.toString();
}
