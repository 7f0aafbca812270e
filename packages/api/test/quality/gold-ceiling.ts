// The best precision@10 that any ranking could reach on the upstream gold
// queries over this catalogue, under the contract: how much of the gold is
// within reach at all. The gold lists are upstream's top ten on their own
// database on 2026-04-25 (bm25 over descriptions the dataset does not carry,
// tiers and places of that day), so part of them cannot be found here by
// anything that ranks what a programme's record says.
//
// A gold id is within reach of a text query when the catalogue's record
// was returned by the search at some depth (itself or merged into a
// programme returned), or passes the query's own filters (tier, prefecture,
// authority level) and its name, published name, aliases or authority hold
// the query (folded as the search folds it). A
// query without `q` has no ranking to choose: the contract orders it by tier
// then name, so its ceiling is what it scores.
import { searchNormalize } from '../../src/catalog/search-text.ts';
import type { EvalQuery } from './eval.ts';

/** What the detail endpoint says about a gold record (the fields the filters and the text test read). */
export interface GoldRecord {
  tier: string;
  prefecture: string | null;
  authority_level: string | null;
  primary_name: string;
  published_name?: string;
  aliases?: string[];
  authority_name?: string | null;
}

export type Unreachable = 'filtered_out' | 'no_query_text';

export interface GoldReach {
  /** Gold ids some ranking could put in the first ten, and why each other one cannot be there. */
  reachable: string[];
  unreachable: Record<string, Unreachable>;
  /** The best precision@10 of any ranking; null for a query with no gold id in the dataset. */
  ceiling: number | null;
}

function passesFilters(args: Record<string, unknown>, r: GoldRecord): boolean {
  const tiers = args.tier as string[] | undefined;
  if (tiers && !tiers.includes(r.tier)) return false;
  if (typeof args.prefecture === 'string' && r.prefecture !== args.prefecture) return false;
  if (typeof args.authority_level === 'string' && r.authority_level !== args.authority_level) return false;
  return true;
}

function holdsQuery(q: string, r: GoldRecord): boolean {
  const text = searchNormalize([r.primary_name, r.published_name ?? '', ...(r.aliases ?? []), r.authority_name ?? ''].join(' '));
  return text.includes(searchNormalize(q));
}

/**
 * Reach of one text query. `returned` holds every id the search returned for
 * it (all depths); `recordOf` reads a gold id's catalogue record.
 */
export function textQueryReach(query: EvalQuery, returned: Set<string>, recordOf: (id: string) => GoldRecord): GoldReach {
  const expected = query.expected_ids_present_in_shared_data;
  const reachable: string[] = [];
  const unreachable: Record<string, Unreachable> = {};
  for (const id of expected) {
    const record = recordOf(id);
    // Shown is reached: a record merged into a programme is shown with it (also_listed_as), whatever its own tier or place.
    if (returned.has(id)) reachable.push(id);
    else if (!passesFilters(query.tool_args, record)) unreachable[id] = 'filtered_out';
    else if (holdsQuery(String(query.tool_args.q), record)) reachable.push(id);
    else unreachable[id] = 'no_query_text';
  }
  const ceiling = expected.length === 0 ? null : Math.min(10, reachable.length) / Math.min(10, expected.length);
  return { reachable, unreachable, ceiling };
}

/** A query whose order the contract fixes (no `q`): its ceiling is its score. */
export function isContractOrdered(query: EvalQuery): boolean {
  return typeof query.tool_args.q !== 'string' || query.tool_args.q.trim() === '';
}
