// The applicant filters of the program listings (active_at, open_programs,
// gx_programs): `industry`, `size` and `target`, matched against what a
// program says about its applicants, its `jsic_majors` and its `target_types`
// (audience terms of the programme vocabulary; ingest derives both where a
// record publishes none, ingest/tagging.ts). A program whose field stays empty
// never matches when the filter is given (as a loan with an unknown risk axis
// never passes a no_* switch); the retrieval note says so.
// Sizes are the shared vocabulary (@jp-support/vocab): its spellings, and the
// target types that admit each size.
import { COMPANY_SIZES, COMPANY_SIZE_TARGET_TYPES, normalizeAudience, normalizeCompanySize } from '@jp-support/vocab';
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

/**
 * A target code of the slot table /v1/am/reason extracts with (sole_proprietor,
 * sme, farmer, …), with every audience that admits it, or an audience of the
 * programme vocabulary in any of its spellings (認定農業者 -> 農林漁業者), or a
 * target type the catalogue holds as is.
 */
export function targetTypes(db: CatalogDatabase, value: string): string[] | null {
  const v = value.normalize('NFKC').trim();
  const spellings = TARGET_KEYWORDS.filter(([, target]) => target === v.toLowerCase()).flatMap(([, , types]) => types);
  if (spellings.length > 0) return [...new Set(spellings)];
  const audience = normalizeAudience(v);
  if (audience) return [audience];
  return enumValues(db, 'program.target_types').some((r) => r.value === v) ? [v] : null;
}

export const TARGET_CODES = [...new Set(TARGET_KEYWORDS.map(([, target]) => target))];

export function applicantFilters(db: CatalogDatabase, p: { industry?: string; size?: string; target?: string }): ApplicantFilters {
  const filters: FactAnyOf[] = [];
  if (p.industry !== undefined && p.industry.trim() !== '') {
    const major = jsicMajor(p.industry);
    if (!major) {
      const words = [...new Set(INDUSTRY_KEYWORDS.map(([kw]) => kw))].slice(0, 12).join(', ');
      return { filters, error: amError('invalid_enum', 'unknown industry', `a JSIC major letter A-T, or an industry word such as ${words}`) };
    }
    filters.push({ fact: 'jsic_majors', values: [major] });
  }
  if (p.size !== undefined && p.size.trim() !== '') {
    const size = normalizeCompanySize(p.size);
    if (!size)
      return {
        filters,
        error: amError(
          'invalid_enum',
          'unknown company size',
          `size is one of ${COMPANY_SIZES.join(', ')} (or another spelling of them: individual, medium, mid, 中小企業, …)`,
        ),
      };
    filters.push({ fact: 'target_types', values: [...COMPANY_SIZE_TARGET_TYPES[size]] });
  }
  if (p.target !== undefined && p.target.trim() !== '') {
    const types = targetTypes(db, p.target);
    if (!types) {
      return {
        filters,
        error: amError('invalid_enum', 'unknown target', `target is one of ${TARGET_CODES.join(', ')}, or a target type of /v1/am/enums/target_type`),
      };
    }
    filters.push({ fact: 'target_types', values: types });
  }
  return { filters, error: null };
}

/** The sentence a listing adds to its retrieval note when an applicant filter was applied. */
export function applicantNote(filters: FactAnyOf[]): string {
  if (filters.length === 0) return '';
  const parts = filters.map((f) => (f.fact === 'jsic_majors' ? `jsic_majors contains ${f.values[0]}` : `target_types among ${f.values.join(', ')}`));
  return `; ${parts.join('; ')}: only programs whose fields name these values can match (published, or derived at ingest from the programme's name, kind and body where it publishes none)`;
}
