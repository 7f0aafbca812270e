// Program candidates for the composite tools: the programs of a prefecture
// plus the national ones (deduplicated), and the programs open on a date.
import type { ProgramSearchQuery } from '@jp-support/client';
import type { ToolApi } from './api.ts';
import type { Row } from './define.ts';
import { compact, rowsOf } from './search.ts';

/** Programs (default shape, up to 100 each) of `prefecture` and nationwide, narrowed by `extra`. */
export async function candidatePrograms(api: ToolApi, prefecture: string | undefined, extra: ProgramSearchQuery = {}): Promise<Row[]> {
  const base: ProgramSearchQuery = compact({ fields: 'default', limit: 100, ...extra });
  const lists = await Promise.all([
    prefecture ? api.programs.search({ ...base, prefecture }).then(rowsOf) : Promise.resolve([]),
    api.programs.search({ ...base, authority_level: 'national' }).then(rowsOf),
  ]);
  const seen = new Set<string>();
  return lists.flat().filter((r) => !seen.has(String(r.unified_id)) && seen.add(String(r.unified_id)));
}

/** Programs whose application window is open on `onDate` (up to 100). */
export async function openPrograms(api: ToolApi, prefecture: string | undefined, onDate: string): Promise<Row[]> {
  return rowsOf(await api.am.openPrograms({ pivot_date: onDate, prefecture, limit: 100 }));
}
