// The deadline calendar: one all-day event per programme application window
// among a search's matches, on the window's closing day (Japan-time date),
// or on its opening day when no closing day is published. Dates are the
// dataset's calendar dates, so they are Japan dates whatever the server's
// time zone. UIDs are stable (programme and date), so a calendar app that
// re-imports the feed updates events instead of duplicating them.
import type { Catalog } from '../catalog/catalog.ts';
import type { ProgramQuery } from '../catalog/programs/query.ts';
import { eventDay } from '../catalog/search/orders.ts';

/** Most events in one calendar. */
export const MAX_EVENTS = 1000;

export interface DeadlineEvent {
  uid: string;
  unified_id: string;
  primary_name: string;
  prefecture: string | null;
  authority_name: string | null;
  /** `deadline` (the window's closing day) or `opening` (only an opening day is published). */
  kind: 'deadline' | 'opening';
  /** The event's day, YYYY-MM-DD (Japan time). */
  date: string;
  window_start: string | null;
  window_end: string | null;
  source_url: string | null;
}

interface EventRow {
  pid: number;
  unified_id: string;
  primary_name: string;
  prefecture: string | null;
  authority_name: string | null;
  window_start: string | null;
  window_end: string | null;
  source_url: string | null;
  official_url: string | null;
}

/**
 * The events of a search's matches whose day is `from` or later (null: all),
 * in date order, at most MAX_EVENTS. The matches are walked in the
 * catalogue's calendar order (computed once, catalog/search/orders.ts) on
 * the in-memory columns; only the listed events' rows are read, the few
 * columns an event shows.
 */
export function deadlineEvents(catalog: Catalog, query: ProgramQuery, from: string | null): { events: DeadlineEvent[]; truncated: boolean } {
  const search = catalog.search;
  const matched = new Uint8Array(search.index.rows.length);
  for (const pid of search.matches(query)) matched[pid] = 1;
  const listed: number[] = [];
  let total = 0;
  for (const pid of search.orders.events.pids) {
    if (matched[pid] === 0 || (from !== null && (eventDay(search.index, pid) as string) < from)) continue;
    if (total++ < MAX_EVENTS) listed.push(pid);
  }
  const rows = new Map(
    catalog.db
      .all<EventRow>(
        `SELECT pid, unified_id, primary_name, prefecture, authority_name, window_start, window_end, source_url, official_url
           FROM programs WHERE pid IN (SELECT value FROM json_each(?))`,
        JSON.stringify(listed),
      )
      .map((r) => [r.pid, r]),
  );
  const events = listed.map((pid): DeadlineEvent => {
    const row = rows.get(pid) as EventRow;
    const kind = row.window_end ? 'deadline' : 'opening';
    const date = (row.window_end ?? row.window_start) as string;
    return {
      uid: `${row.unified_id}-${kind}-${date}@jp-support-programs`,
      unified_id: row.unified_id,
      primary_name: row.primary_name,
      prefecture: row.prefecture,
      authority_name: row.authority_name,
      kind,
      date,
      window_start: row.window_start,
      window_end: row.window_end,
      source_url: row.source_url ?? row.official_url,
    };
  });
  return { events, truncated: total > MAX_EVENTS };
}
