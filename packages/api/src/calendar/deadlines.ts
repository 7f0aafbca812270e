// The deadline calendar: one all-day event per programme application window
// among a search's matches, on the window's closing day (Japan-time date),
// or on its opening day when no closing day is published. Dates are the
// dataset's calendar dates, so they are Japan dates whatever the server's
// time zone. UIDs are stable (programme and date), so a calendar app that
// re-imports the feed updates events instead of duplicating them.
import type { Catalog } from '../catalog/catalog.ts';
import { defaultShape } from '../catalog/programs/records.ts';
import type { ProgramQuery } from '../catalog/programs/query.ts';

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

const DATE = /^\d{4}-\d{2}-\d{2}/;
const day = (v: unknown): string | null => (typeof v === 'string' && DATE.test(v) ? v.slice(0, 10) : null);

/** The events of a search's matches whose day is `from` or later (null: all), in date order, at most MAX_EVENTS. */
export function deadlineEvents(catalog: Catalog, query: ProgramQuery, from: string | null): { events: DeadlineEvent[]; truncated: boolean } {
  const events: DeadlineEvent[] = [];
  const { hits } = catalog.programs.stream(query, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
  for (const { row } of hits) {
    const shaped = defaultShape(row);
    const start = day(shaped.application_window.start);
    const end = day(shaped.application_window.end);
    const date = end ?? start;
    if (!date || (from !== null && date < from)) continue;
    const kind = end ? 'deadline' : 'opening';
    events.push({
      uid: `${row.unified_id}-${kind}-${date}@jp-support-programs`,
      unified_id: row.unified_id,
      primary_name: row.primary_name,
      prefecture: row.prefecture,
      authority_name: row.authority_name,
      kind,
      date,
      window_start: start,
      window_end: end,
      source_url: row.source_url ?? row.official_url,
    });
  }
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.unified_id < b.unified_id ? -1 : 1));
  return { events: events.slice(0, MAX_EVENTS), truncated: events.length > MAX_EVENTS };
}
