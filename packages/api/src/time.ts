// Calendar helpers for the two clocks of the contract: Japan time (UTC+9, no
// daylight saving) for the anonymous limit, monthly caps and billing months,
// and UTC for the free keyed quota.
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
