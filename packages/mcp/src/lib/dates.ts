// Dates in Japan time (UTC+9, no daylight saving), as YYYY-MM-DD strings.

/** Today in Japan time. */
export function todayJst(now = new Date()): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

/** An `as_of` argument ('today' or a date) as a date. */
export function resolveAsOf(value: string | undefined): string {
  return !value || value === 'today' ? todayJst() : value;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Japanese fiscal quarter (April start): 2027-02-28 -> FY2026-Q4. */
export function fiscalQuarter(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const fy = month >= 4 ? year : year - 1;
  const q = month >= 4 ? Math.floor((month - 4) / 3) + 1 : 4;
  return `FY${fy}-Q${q}`;
}
