// The programs open on a date (the deadline tools).
import type { ToolApi } from './api.ts';
import type { Row } from './define.ts';
import { rowsOf } from './search.ts';

/** Programs whose application window is open on `onDate` (up to 100). */
export async function openPrograms(api: ToolApi, prefecture: string | undefined, onDate: string, query?: string): Promise<Row[]> {
  return rowsOf(await api.am.openPrograms({ pivot_date: onDate, prefecture, ...(query?.trim() ? { query: query.trim() } : {}), limit: 100 }));
}
