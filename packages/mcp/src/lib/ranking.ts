// Ranking programs against a business profile (prescreen, starter pack): a
// plain function, tested directly.
import type { CompanySize } from '@jp-support/vocab';
import { admitsSize, audienceOf } from './company-size.ts';
import type { Profile, Row } from './define.ts';

const TIER_POINTS: Record<string, number> = { S: 4, A: 3, B: 2, C: 1 };

/**
 * Score programs against a profile (prefecture, is_sole_proprietor,
 * company_size, planned_investment_man_yen); each result carries `score` and
 * the `reasons` behind it. Highest first, ties by name.
 */
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
      const audiences = targets.map(audienceOf);
      if (profile.is_sole_proprietor === true && audiences.includes('個人事業主')) {
        score += 2;
        reasons.push('open to sole proprietors');
      } else if (profile.is_sole_proprietor === false && audiences.some((t) => t === '法人' || t === '中小企業')) {
        score += 1;
        reasons.push('open to companies/SMEs');
      }
      // A company size (from the headcount) rules out programs whose applicant types exclude it.
      const size = profile.company_size as CompanySize | undefined;
      if (size && !admitsSize(p, size)) {
        score -= 5;
        reasons.push(`applicant types (${targets.join(', ')}) do not admit a ${size} company`);
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
