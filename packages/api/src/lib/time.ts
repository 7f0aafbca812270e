// Calendar helpers. The two clocks of the contract: Japan time (UTC+9, no
// daylight saving) for the anonymous limit, monthly caps and billing months,
// and UTC for the free keyed quota. And the calendar-date checks every
// module shares (a real YYYY-MM-DD, the date part of a timestamp, days apart).
const JST_OFFSET_MS = 9 * 3600 * 1000;

/** `YYYY-MM-DD` of the Japan-time calendar day. */
export function jstDate(now = new Date()): string {
  return new Date(now.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM` of the Japan-time calendar month (the billing month). */
export function jstMonth(now = new Date()): string {
  return jstDate(now).slice(0, 7);
}

/** `YYYY-MM-DD` of the UTC calendar day. */
export function utcDate(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The instant of the next Japan-time 00:00. */
export function nextJstMidnight(now = new Date()): Date {
  const shifted = new Date(now.getTime() + JST_OFFSET_MS);
  const midnight = Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate() + 1);
  return new Date(midnight - JST_OFFSET_MS);
}

/** The instant of the next UTC 00:00. */
export function nextUtcMidnight(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** ISO 8601 with the Japan offset, e.g. `2025-01-02T00:00:00+09:00`. */
export function isoJst(instant: Date): string {
  return new Date(instant.getTime() + JST_OFFSET_MS).toISOString().replace(/\.\d{3}Z$/, '+09:00');
}

/** Whole seconds from `now` until `instant` (at least 1). */
export function secondsUntil(instant: Date, now = new Date()): number {
  return Math.max(1, Math.ceil((instant.getTime() - now.getTime()) / 1000));
}

/** ISO 8601 UTC to the second, e.g. `2025-01-02T03:04:05Z`. */
export function utcSeconds(instant = new Date()): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A real calendar date `YYYY-MM-DD` (not 2025-02-30). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** `YYYY-MM-DD` of an ISO timestamp or date-like string; null when it names no real date. */
export function datePart(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return m && isIsoDate(m[1]) ? m[1] : null;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
