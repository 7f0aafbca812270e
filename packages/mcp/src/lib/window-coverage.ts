// What a deadline answer can cover: only programmes whose application window
// has a known closing date (few of them). Every deadline tool states it, so an
// empty month is not read as "nothing closes" (decision 0392).
import type { ToolApi } from './api.ts';

export interface WindowCoverage {
  programs_with_known_window: number | null;
  programs_total: number | null;
}

export async function windowCoverage(api: ToolApi): Promise<WindowCoverage> {
  const meta = (await api.meta()) as { programs_with_window?: number; total_programs?: number };
  return { programs_with_known_window: meta.programs_with_window ?? null, programs_total: meta.total_programs ?? null };
}

export function windowSentence(c: WindowCoverage): string {
  if (c.programs_with_known_window === null || c.programs_total === null) return 'Application windows are known for few programmes.';
  return `Application windows are known for ${c.programs_with_known_window} of ${c.programs_total} programmes; the others may still close in this period.`;
}
