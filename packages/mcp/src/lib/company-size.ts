// Company-size arguments. The tools keep the reference surface's spellings in
// their schemas (sole/small/medium/large; sole/small/sme/mid/large); the
// shared vocabulary (@jp-support/vocab) reads each as one of five sizes and
// knows which program target types admit it.
import { z } from 'zod';
import { COMPANY_SIZE_TARGET_TYPES, companySizeFromEmployees, normalizeAudience, normalizeCompanySize, type CompanySize } from '@jp-support/vocab';
import type { Row } from './define.ts';

/** The four-size spelling (subsidy_roadmap_3yr, regulatory_prep_pack); `medium` is an SME. */
export const SIZE4 = z.enum(['sole', 'small', 'medium', 'large']);
/** The five-size spelling of the entity-store tools; `mid` is a mid-size company above the SME limits. */
export const SIZE5 = z.enum(['sole', 'small', 'sme', 'mid', 'large']);

export function sizeArg(value: string | undefined): CompanySize | undefined {
  return value === undefined ? undefined : (normalizeCompanySize(value) ?? undefined);
}

/**
 * Whether a program admits an applicant of `size`: a program that names no
 * applicant types admits everyone; one that names some must name a type the
 * size falls under.
 */
export function admitsSize(program: Row, size: CompanySize): boolean {
  const targets = Array.isArray(program.target_types) ? (program.target_types as unknown[]) : [];
  return targets.length === 0 || targets.some((t) => typeof t === 'string' && COMPANY_SIZE_TARGET_TYPES[size].includes(audienceOf(t)));
}

/** A target type as an audience term of the programme vocabulary (older spellings such as sole_proprietor read too). */
export function audienceOf(targetType: string): string {
  return normalizeAudience(targetType) ?? targetType;
}

/** The size a business profile implies: none for a sole proprietor (ranked as such), else from the headcount. */
export function sizeFromProfile(isSoleProprietor: boolean | undefined, employees: number | undefined): CompanySize | undefined {
  return isSoleProprietor === true || employees === undefined ? undefined : companySizeFromEmployees(employees);
}
