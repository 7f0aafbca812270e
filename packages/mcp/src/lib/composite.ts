// Plain functions behind the composite tools: ranking, dates, buckets.
export type Row = Record<string, unknown>;
export type Profile = Record<string, unknown>;

const TIER_POINTS: Record<string, number> = { S: 4, A: 3, B: 2, C: 1 };

/** Score programs against a profile; each result carries `score` and the `reasons` behind it. Highest first, ties by name. */
export function rankPrograms(programs: Row[], profile: Profile): Row[] {
  const scored = programs
    .filter((p) => p.excluded !== true && p.tier !== 'X')
    .map((p): Row & { score: number; reasons: string[] } => {
      const reasons: string[] = [];
      let score = TIER_POINTS[String(p.tier)] ?? 0;
      reasons.push(`tier ${String(p.tier)}`);
      if (profile.prefecture && p.prefecture === profile.prefecture) {
        score += 3;
        reasons.push(`offered in ${String(profile.prefecture)}`);
      } else if (p.prefecture === null || p.authority_level === 'national') {
        score += 1;
        reasons.push('nationwide');
      } else if (profile.prefecture) {
        score -= 5;
        reasons.push(`offered in another prefecture (${String(p.prefecture)})`);
      }
      const targets = Array.isArray(p.target_types) ? (p.target_types as string[]) : [];
      if (profile.is_sole_proprietor === true && targets.includes('sole_proprietor')) {
        score += 2;
        reasons.push('open to sole proprietors');
      } else if (profile.is_sole_proprietor === false && targets.some((t) => t === 'corporation' || t === 'sme')) {
        score += 1;
        reasons.push('open to companies/SMEs');
      }
      const invest = typeof profile.planned_investment_man_yen === 'number' ? profile.planned_investment_man_yen : null;
      const max = typeof p.amount_max_man_yen === 'number' ? p.amount_max_man_yen : null;
      if (invest !== null && max !== null && max >= invest * 0.25) {
        score += 1;
        reasons.push(`up to ${max} 万円 against a planned ${invest} 万円`);
      }
      return { ...p, score, reasons };
    });
  return scored.sort((a, b) => b.score - a.score || String(a.primary_name).localeCompare(String(b.primary_name)));
}

/** The closing date of a program row's application window, whatever the row calls it. */
export function deadlineOf(row: Row): string | null {
  const w = row.application_window as { end?: unknown } | null | undefined;
  const candidates = [w?.end, row.deadline, row.window_end, row.application_end, row.close_date, row.end_date];
  for (const c of candidates) if (typeof c === 'string' && /^\d{4}-\d{2}-\d{2}/.test(c)) return c.slice(0, 10);
  return null;
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

export function sunsetBucket(daysLeft: number): 'critical' | 'warning' | 'upcoming' | 'later' {
  return daysLeft <= 90 ? 'critical' : daysLeft <= 180 ? 'warning' : daysLeft <= 365 ? 'upcoming' : 'later';
}
