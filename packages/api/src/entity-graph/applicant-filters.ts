// The applicant filters of the program listings (active_at, open_programs,
// gx_programs): `industry` and `target`, matched against what a program
// publishes about its applicants, its `jsic_majors` (908 of 12,072 programs)
// and its `target_types` (687). A program that publishes neither never
// matches when the filter is given; the listing's retrieval note says so.
import type { CatalogDatabase } from '../catalog/db.ts';
import { amError, type AmError } from './envelope.ts';
import type { FactAnyOf } from './queries/entities.ts';
import { enumValues } from './queries/enums.ts';
import { extractIndustry, INDUSTRY_KEYWORDS, TARGET_KEYWORDS } from './slots.ts';

export interface ApplicantFilters {
  filters: FactAnyOf[];
  error: AmError | null;
}

const JSIC_MAJORS = 'ABCDEFGHIJKLMNOPQRST';

/** `E`, `e`, `製造業`, `manufacturing` -> the JSIC major; null when no industry can be read. */
export function jsicMajor(value: string): string | null {
  const v = value.normalize('NFKC').trim();
  if (/^[A-Za-z]$/.test(v) && JSIC_MAJORS.includes(v.toUpperCase())) return v.toUpperCase();
  return extractIndustry(v)?.jsic_major ?? null;
}

/** Size words of the tools' vocabularies -> the target code they mean. */
const TARGET_ALIASES: Record<string, string> = { sole: 'sole_proprietor', individual: 'sole_proprietor', small: 'small_business' };
/** Size words no program publishes: its target types never name mid-size or large firms. */
const NO_DATA_SIZES = new Set(['mid', 'midsize', 'large']);

/**
 * A target code (sole_proprietor, sme, farmer, …: the codes of the slot
 * table, with every spelling the programs use for it, the same table
 * /v1/am/reason extracts with), a size word (sole, small, individual), or a
 * target type the dataset publishes as is (municipality, 認定農業者, …).
 */
export function targetTypes(db: CatalogDatabase, value: string): string[] | null {
  const v = value.normalize('NFKC').trim();
  const code = TARGET_ALIASES[v.toLowerCase()] ?? v.toLowerCase();
  const spellings = TARGET_KEYWORDS.filter(([, target]) => target === code).flatMap(([, , types]) => types);
  if (spellings.length > 0) return [...new Set(spellings)];
  return enumValues(db, 'program.target_types').some((r) => r.value === v) ? [v] : null;
}

export const TARGET_CODES = [...new Set(TARGET_KEYWORDS.map(([, target]) => target))];

export function applicantFilters(db: CatalogDatabase, p: { industry?: string; target?: string }): ApplicantFilters {
  const filters: FactAnyOf[] = [];
  if (p.industry !== undefined && p.industry.trim() !== '') {
    const major = jsicMajor(p.industry);
    if (!major) {
      const words = [...new Set(INDUSTRY_KEYWORDS.map(([kw]) => kw))].slice(0, 12).join(', ');
      return { filters, error: amError('invalid_enum', 'unknown industry', `a JSIC major letter A-T, or an industry word such as ${words}`) };
    }
    filters.push({ fact: 'jsic_majors', values: [major] });
  }
  if (p.target !== undefined && p.target.trim() !== '') {
    if (NO_DATA_SIZES.has(p.target.trim().toLowerCase())) {
      return { filters, error: amError('invalid_enum', 'no program publishes mid-size or large companies as applicants', 'leave target out: no target type of the data names a company size above SME') };
    }
    const types = targetTypes(db, p.target);
    if (!types) {
      return { filters, error: amError('invalid_enum', 'unknown target', `target is one of ${[...TARGET_CODES, 'sole', 'small'].join(', ')}, or a target type of /v1/am/enums/target_type`) };
    }
    filters.push({ fact: 'target_types', values: types });
  }
  return { filters, error: null };
}

/** The sentence a listing adds to its retrieval note when an applicant filter was applied. */
export function applicantNote(filters: FactAnyOf[]): string {
  if (filters.length === 0) return '';
  const parts = filters.map((f) => (f.fact === 'jsic_majors' ? `industry = jsic_majors contains ${f.values[0]}` : `target = target_types among ${f.values.join(', ')}`));
  return `; ${parts.join('; ')}: only programs publishing these fields can match (jsic_majors: 908, target_types: 687 of 12,072 programs)`;
}
