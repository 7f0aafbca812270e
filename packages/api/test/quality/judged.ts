// The judged query set (test/fixtures/judged_queries.jsonl, described in
// judged_queries.md): queries written from the data, each with graded
// judgments of the programmes a pool of search methods found for it.
// Shared by the file's own checks and by the ranking evaluation.
import { createHash } from 'node:crypto';
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
  /** Held out: never looked at while tuning ranking (see HOLDOUT_SEED). */
  holdout?: true;
}

/** A company profile for POST /v1/programs/match (fixtures/judged_profiles.jsonl). */
export interface MatchProfile {
  prefecture?: string;
  municipality?: string;
  /** JSIC major letter (A–T) or digits. */
  industry?: string;
  employees?: number;
  capital_man_yen?: number;
  founded_year?: number;
  stage?: 'planning' | 'founding' | 'established';
  purposes?: string[];
  /** Free text, as the owner would write it. */
  need?: string;
}

export interface JudgedProfile {
  id: string;
  profile: MatchProfile;
  need: string;
  category: string;
  /** Query text and arguments for scripts/judged-pool.ts that re-create the judged pool. */
  pool_query: string;
  pool: string;
  judgments: Record<string, Grade>;
  holdout?: true;
}

export const JUDGED_QUERIES_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'judged_queries.jsonl');

export const JUDGED_PROFILES_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'judged_profiles.jsonl');

function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function loadJudgedQueries(file = JUDGED_QUERIES_FILE): JudgedQuery[] {
  return readJsonLines<JudgedQuery>(file);
}

export function loadJudgedProfiles(file = JUDGED_PROFILES_FILE): JudgedProfile[] {
  return readJsonLines<JudgedProfile>(file);
}

/**
 * The held-out part is drawn once, before any tuning, by a seeded random
 * draw: within each category the records are ordered by
 * sha256(`${HOLDOUT_SEED}:${id}`) and the first round(30 %) are held out.
 * The files carry the result as `"holdout": true`; the set's tests check
 * that the marks are exactly this draw, so nobody moves a record between
 * the parts after seeing its score.
 */
export const HOLDOUT_SEED = 'jpsp-judged-holdout-2026-11';
export const HOLDOUT_SHARE = 0.3;

export function holdoutDraw(records: { id: string; category: string }[], seed = HOLDOUT_SEED): Set<string> {
  const byCategory = new Map<string, string[]>();
  for (const r of records) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r.id]);
  const drawn = new Set<string>();
  const key = (id: string): string => createHash('sha256').update(`${seed}:${id}`).digest('hex');
  for (const ids of byCategory.values()) {
    const ordered = [...ids].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    for (const id of ordered.slice(0, Math.round(ids.length * HOLDOUT_SHARE))) drawn.add(id);
  }
  return drawn;
}

/** The query string of a judged query's search, with the page size the evaluation asks for. */
export function judgedSearchQuery(params: SearchParams, limit = 10): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  query.set('limit', String(limit));
  // The full shape names the records merged into each programme (also_listed_as): a row is graded by the best of them.
  query.set('fields', 'full');
  return query.toString();
}
