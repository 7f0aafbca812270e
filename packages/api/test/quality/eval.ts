// Search-quality evaluation over the upstream gold queries
// (test/fixtures/eval_queries.jsonl): precision@10 and recall per query,
// measured through the HTTP API. Shared by the per-tool quality tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface EvalQuery {
  id: string;
  category: string;
  tool_name: string;
  tool_args: Record<string, unknown>;
  expected_ids: string[];
  forbidden_ids: string[];
  min_precision_at_10: number;
  expected_ids_present_in_shared_data: string[];
}

export function loadEvalQueries(toolName?: string): EvalQuery[] {
  const file = path.join(import.meta.dirname, '..', 'fixtures', 'eval_queries.jsonl');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as EvalQuery)
    .filter((q) => !toolName || q.tool_name === toolName);
}

export interface QueryScore {
  id: string;
  precisionAt10: number | null;
  recall: number | null;
  forbiddenReturned: string[];
  returned: number;
}

/**
 * precision@10 = relevant among the first 10 returned / min(10, |expected present|);
 * the denominator follows the gold set's size so that a query with 5 expected
 * ids can reach 1.0. recall = relevant among all returned / |expected present|.
 * Gold ids missing from our dataset are left out of both (they cannot be found).
 * Queries with no expected ids score null (nothing to measure).
 */
/**
 * `firstPage`: the record ids of the first ten rows (each row with the records
 * merged into its programme), when the rows stand for several records; else
 * the first ten of `returnedIds`.
 */
export function score(query: EvalQuery, returnedIds: string[], firstPage?: string[]): QueryScore {
  const expected = new Set(query.expected_ids_present_in_shared_data);
  const forbidden = query.forbidden_ids.map((f) => f.split(/\s/)[0]);
  const forbiddenReturned = returnedIds.filter((id) => forbidden.includes(id));
  if (expected.size === 0) return { id: query.id, precisionAt10: null, recall: null, forbiddenReturned, returned: returnedIds.length };
  const top = firstPage ?? returnedIds.slice(0, 10);
  const hitsTop = Math.min(10, top.filter((id) => expected.has(id)).length);
  const hitsAll = new Set(returnedIds.filter((id) => expected.has(id))).size;
  return {
    id: query.id,
    precisionAt10: hitsTop / Math.min(10, expected.size),
    recall: hitsAll / expected.size,
    forbiddenReturned,
    returned: returnedIds.length,
  };
}

export function mean(values: (number | null)[]): number {
  const nums = values.filter((v): v is number => v !== null);
  return nums.length === 0 ? 0 : nums.reduce((a, b) => a + b, 0) / nums.length;
}

/** Query string of a search_programs call, mapped to our parameter names. */
export function programSearchQuery(args: Record<string, unknown>, limit = 100): string {
  const params = new URLSearchParams();
  const rename: Record<string, string> = { amount_min_man_yen: 'amount_min', amount_max_man_yen: 'amount_max' };
  for (const [key, value] of Object.entries(args)) {
    if (key === 'limit' || key === 'fields' || key === 'as_of') continue;
    const name = rename[key] ?? key;
    if (Array.isArray(value)) for (const v of value) params.append(name, String(v));
    else if (value !== '' && value !== null && value !== undefined) params.append(name, String(value));
  }
  params.set('limit', String(limit));
  params.set('fields', 'minimal');
  return params.toString();
}
