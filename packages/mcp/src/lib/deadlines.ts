// Deadlines of application windows and expiry buckets of tax measures.
import type { Row } from './define.ts';

/** The closing date of a program row's application window, whatever the row calls it. */
export function deadlineOf(row: Row): string | null {
  const w = row.application_window as { end?: unknown } | null | undefined;
  const candidates = [w?.end, row.deadline, row.window_end, row.application_end, row.close_date, row.end_date];
  for (const c of candidates) if (typeof c === 'string' && /^\d{4}-\d{2}-\d{2}/.test(c)) return c.slice(0, 10);
  return null;
}

export function sunsetBucket(daysLeft: number): 'critical' | 'warning' | 'upcoming' | 'later' {
  return daysLeft <= 90 ? 'critical' : daysLeft <= 180 ? 'warning' : daysLeft <= 365 ? 'upcoming' : 'later';
}

/** Rows whose window closes between `from` and `until` (inclusive), with `deadline` set, soonest first; only the given tiers when any. */
export function closingBetween(rows: Row[], from: string, until: string, tiers?: readonly string[]): (Row & { deadline: string })[] {
  return rows
    .map((r) => ({ ...r, deadline: deadlineOf(r) }))
    .filter((r): r is Row & { deadline: string } => r.deadline !== null && r.deadline >= from && r.deadline <= until)
    .filter((r) => !tiers || tiers.length === 0 || tiers.includes(String(r.tier)))
    .sort((x, y) => x.deadline.localeCompare(y.deadline));
}
